/**
 * Fitting text into GitHub's limits, counted in bytes of UTF-8 (core/github/github-limits.ts;
 * docs/github-app.md, "Fitting GitHub's limits").
 */

const ELLIPSIS = '…';
const ELLIPSIS_BYTES = 3;

function codePointBytes(codePoint: number): number {
  return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
}

/** The length of `text` in bytes of UTF-8 (a lone surrogate counts as the 3 bytes of U+FFFD it is sent as). */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (const char of text) bytes += codePointBytes(char.codePointAt(0)!);
  return bytes;
}

/** `text` cut to at most `maxBytes` of UTF-8 between two characters, ending in "…" when cut. */
export function clipToBytes(text: string, maxBytes: number): string {
  if (utf8Bytes(text) <= maxBytes) return text;
  if (maxBytes < ELLIPSIS_BYTES) return '';
  let used = 0;
  let end = 0;
  for (const char of text) {
    const bytes = codePointBytes(char.codePointAt(0)!);
    if (used + bytes + ELLIPSIS_BYTES > maxBytes) break;
    used += bytes;
    end += char.length;
  }
  return `${text.slice(0, end)}${ELLIPSIS}`;
}

/**
 * A part of a fitted text: lines kept whole, or a list of which only the first items that fit are
 * kept, followed by `more(left)` saying how many were left out (and where to see them).
 */
export type FittedPart = { lines: string[] } | { items: string[]; more(left: number): string };

/**
 * The parts joined by `separator` within `maxBytes`: every fixed line, and of each list, in order,
 * as many first items as fit, then its `more` line. A list's `more` line is reserved before any
 * list is filled (with its largest count, so the real one never needs more), and a list that fits
 * whole hands that room on to the next. Deterministic, so an unchanged input gives the same text
 * (posting compares before it writes). Fixed lines too long even on their own are clipped, as a
 * last resort: callers keep them short.
 */
export function fitParts(parts: FittedPart[], maxBytes: number, separator = '\n'): string {
  const separatorBytes = utf8Bytes(separator);
  const cost = (line: string) => utf8Bytes(line) + separatorBytes;
  const total = (lines: string[]) => lines.reduce((sum, line) => sum + cost(line), 0);
  // Every line but the last is followed by a separator: count one for each and give the last one back.
  let room = maxBytes + separatorBytes;
  for (const part of parts) {
    if ('lines' in part) room -= total(part.lines);
    else if (part.items.length > 0) room -= cost(part.more(part.items.length));
  }
  const out: string[] = [];
  for (const part of parts) {
    if ('lines' in part) {
      out.push(...part.lines);
      continue;
    }
    if (part.items.length === 0) continue;
    const reserved = cost(part.more(part.items.length));
    const costs = part.items.map(cost);
    const all = costs.reduce((sum, c) => sum + c, 0);
    if (all <= room + reserved) {
      out.push(...part.items);
      room += reserved - all;
      continue;
    }
    let kept = 0;
    while (kept < costs.length && costs[kept] <= room) room -= costs[kept++];
    out.push(...part.items.slice(0, kept), part.more(part.items.length - kept));
  }
  return clipToBytes(out.join(separator), maxBytes);
}
