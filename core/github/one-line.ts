/**
 * `text` with each run of white space that holds a line break made one space, other runs kept:
 * an entry of a Markdown list or table row must stay on its line. Each run is matched once from
 * its start; the regex it replaces (white space, a line feed, white space) retried a long run
 * without a line break from every character of it (docs/operations.md, "Regular expressions").
 */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, (run) => (run.includes('\n') ? ' ' : run));
}
