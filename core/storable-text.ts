/** A UTF-16 half without its pair: JSON may escape one (`"\ud800"`), but no UTF-8 text or jsonb value holds it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/** Whether PostgreSQL can store the text as given (text and jsonb refuse NUL; jsonb refuses lone surrogates). */
export function isStorableText(text: string): boolean {
  return !text.includes('\0') && !LONE_SURROGATE.test(text);
}

/** The text with each character PostgreSQL cannot store (see isStorableText) replaced by U+FFFD, as a UTF-8 decoder would. */
export function storableText(text: string): string {
  return isStorableText(text) ? text : text.replaceAll('\0', '\uFFFD').replace(LONE_SURROGATES, '\uFFFD');
}
