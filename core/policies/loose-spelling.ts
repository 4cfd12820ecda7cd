/**
 * How a deny rule, an ask rule and a `forbidden` capability also read a path or a command line
 * (docs/agent-hooks.md, "Spellings the agent's machine reads alike"): as a case-insensitive
 * filesystem reads a path (macOS's and Windows' defaults: `.GitHub/Workflows/ci.yml` is
 * `.github/workflows/ci.yml` there, and `GIT` runs git), Unicode composed (APFS does not tell NFC
 * from NFD), and a name's trailing dots and spaces and an NTFS stream suffix (`::$DATA`) dropped,
 * as Windows opens `.env.` and `.env::$DATA` as `.env`. Grants and `allow` rules match only the
 * spelling as sent, so a spelling can make a call more refused, never less.
 */
export const looseText = (text: string): string => text.normalize('NFC').toLowerCase();

const STREAM_SUFFIX = /::\$data$/;

function withoutTrailingDotsAndSpaces(name: string): string {
  let end = name.length;
  while (end > 0 && (name[end - 1] === '.' || name[end - 1] === ' ')) end--;
  return name.slice(0, end);
}

/** A path as `looseText`, each name without its Windows-dropped tail. */
export function loosePath(path: string): string {
  return looseText(path)
    .split('/')
    .map((name) => {
      if (name === '.' || name === '..') return name;
      const trimmed = withoutTrailingDotsAndSpaces(name.replace(STREAM_SUFFIX, ''));
      return trimmed === '' ? name : trimmed;
    })
    .join('/');
}
