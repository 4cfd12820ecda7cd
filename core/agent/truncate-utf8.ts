/** The text cut to at most `maxBytes` of UTF-8, never in the middle of a character. */
export function truncateUtf8(text: string, maxBytes: number): string {
  // Fast path: even 4 bytes per code unit fit.
  if (text.length * 3 <= maxBytes) return text;
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  // Step back over continuation bytes (10xxxxxx) to the start of the cut character.
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}
