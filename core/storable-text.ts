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

/**
 * A value read from JSON with every string and key made storable (storableText). Values reach here after the body's
 * depth check (at most 100 levels), so recursion is bounded.
 */
export function storableJson(value: unknown): unknown {
  if (typeof value === 'string') return storableText(value);
  if (Array.isArray(value)) return value.map(storableJson);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [storableText(key), storableJson(item)]));
}
