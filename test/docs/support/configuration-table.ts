/** The README's configuration table: the one place every variable the config loader reads is documented. */
export const CONFIGURATION_DOC = { file: 'README.md', heading: '## Configuration' };

/** The variables named (in backticks) in the first column of the table rows under `heading`, up to the next `## `. */
export function variablesInConfigurationTable(markdown: string, heading = CONFIGURATION_DOC.heading): string[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.trim() === heading);
  if (start === -1) return [];
  const end = lines.findIndex((line, i) => i > start && /^#{1,2} /.test(line));
  const rows = lines.slice(start + 1, end === -1 ? undefined : end).filter((line) => line.trim().startsWith('|'));
  const firstCells = rows.map((row) => row.trim().slice(1).split('|')[0]);
  return [...new Set(firstCells.flatMap((cell) => [...cell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1])))].sort();
}
