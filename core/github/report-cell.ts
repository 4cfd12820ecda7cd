import { clipToBytes } from './fit-to-bytes.js';
import { REPORT_CELL_MAX_BYTES } from './github-limits.js';
import { markdownText } from './markdown-text.js';
import { oneLine } from './one-line.js';

/**
 * Outside text as one table cell or list entry of the report: on one line, shown as text and not read as Markdown
 * (markdownText; docs/github-app.md, "Quoting outside text"), then cut, so the escaped cell still fits
 * REPORT_CELL_MAX_BYTES and no single entry crowds out the others.
 */
export function reportCell(text: string): string {
  return clipToBytes(markdownText(oneLine(text)), REPORT_CELL_MAX_BYTES);
}
