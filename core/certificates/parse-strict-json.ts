import { findJsonProblem, type JsonProblem } from './find-json-problem.js';

/**
 * A file's bytes as JSON, refusing what a lenient reader would let through unsigned: bytes that
 * are not UTF-8 (a lenient decoder turns them into U+FFFD, so two different files would read
 * alike), and whatever `findJsonProblem` refuses (duplicate keys, deep nesting, non-canonical
 * numbers). JSON.parse runs only after the scan, on text known to be within the limits.
 */
export function parseStrictJson(
  bytes: Uint8Array,
  limits: { maxDepth: number; maxValues: number },
): { ok: true; value: unknown } | ({ ok: false } & JsonProblem) {
  let text: string;
  try {
    // ignoreBOM keeps a byte-order mark in the text, where the scan refuses it like any other stray character.
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { ok: false, kind: 'refused', message: 'not valid UTF-8' };
  }
  const problem = findJsonProblem(text, limits);
  if (problem) return { ok: false, ...problem };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, kind: 'syntax', message: 'not JSON' };
  }
}
