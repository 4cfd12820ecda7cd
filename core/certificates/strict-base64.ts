const STANDARD = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Decodes standard base64, or returns null for anything that is not its one canonical
 * spelling. Node's decoder skips stray characters and ignores the padding bits of the last
 * character; accepting those would let an edited envelope decode to the same bytes.
 */
export function decodeStrictBase64(text: string): Buffer | null {
  if (text.length % 4 !== 0 || !STANDARD.test(text)) return null;
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? bytes : null;
}
