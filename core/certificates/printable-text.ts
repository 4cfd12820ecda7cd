/**
 * What `shipgate verify` prints of a package (its FAIL lines: docs/api.md, "Verifying an export
 * offline") are names and values the package chose, read by a person in a terminal. Printed raw,
 * a member name of a carriage return and ANSI escapes erased the FAIL line and showed "OK: the
 * package verifies." (the exit code was still 1), and one record's million-item list was a 23 MB
 * line. So every such value is cut to a bound and its unprintable characters escaped.
 */

/** How many characters of one value, name or path are printed before the cut is marked. */
export const PRINTED_VALUE_CHARS = 200;

/**
 * What a terminal acts on or what makes text read other than it is: control characters (C0, DEL,
 * C1, which includes the 8-bit CSI), format characters (bidirectional overrides, zero-width
 * characters), line and paragraph separators, and lone surrogates (a cut may leave one).
 */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

const unicodeEscape = (char: string): string =>
  Array.from({ length: char.length }, (_, i) => `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}

/**
 * Prose that may carry a package's values (a failure's reason, a note, a refusal): cut to `max`
 * characters and its unprintable characters written as `\uXXXX`. Backslashes stay as they are,
 * since the values in it are already JSON (`show` below writes them so).
 */
export function printableText(text: unknown, max = 5 * PRINTED_VALUE_CHARS): string {
  return cut(String(text), max).replace(UNPRINTABLE, unicodeEscape);
}

/**
 * A name taken from a package (a member, a certificate id, a path built from its keys), printed
 * between quotes: cut, unprintable characters as `\uXXXX`, and `\` and `'` escaped, so a name
 * cannot end its quotes early or read as an escape it does not hold.
 */
export function printableName(name: unknown, max = PRINTED_VALUE_CHARS): string {
  const text = String(name);
  const shown = text.length > max ? text.slice(0, max) : text;
  const escaped = shown.replace(/[\\']/g, (c) => `\\${c}`).replace(UNPRINTABLE, unicodeEscape);
  return text.length > max ? `${escaped}… (${text.length} characters)` : escaped;
}

/** How big a value is, for the mark after its cut. */
function sizeOf(value: unknown): string {
  if (typeof value === 'string') return `${value.length} characters`;
  if (Array.isArray(value)) return `${value.length} item${value.length === 1 ? '' : 's'}`;
  const fields = Object.keys(value as object).length;
  return `${fields} field${fields === 1 ? '' : 's'}`;
}

/**
 * A value as JSON, at most `max` characters of it: the writing stops once past the bound, so a
 * list of a million items costs what its first few do, where JSON.stringify wrote all 23 MB. An
 * object's keys are still listed whole (JavaScript has no lazy way to list them).
 */
export function show(value: unknown, max = PRINTED_VALUE_CHARS): string {
  if (value === undefined) return 'nothing';
  let out = '';
  const write = (v: unknown): boolean => {
    if (Array.isArray(v)) {
      out += '[';
      for (let i = 0; i < v.length; i++) {
        if (i > 0) out += ',';
        if (!write(v[i] === undefined ? null : v[i])) return false;
      }
      out += ']';
    } else if (typeof v === 'object' && v !== null) {
      out += '{';
      let first = true;
      for (const [key, child] of Object.entries(v)) {
        if (child === undefined) continue;
        out += `${first ? '' : ','}${JSON.stringify(key.length > max ? key.slice(0, max + 1) : key)}:`;
        first = false;
        if (out.length > max || !write(child)) return false;
      }
      out += '}';
    } else if (typeof v === 'string') out += JSON.stringify(v.length > max ? v.slice(0, max + 1) : v);
    else out += JSON.stringify(v) ?? 'null';
    return out.length <= max;
  };
  return write(value) ? out : `${out.slice(0, max)}… (${sizeOf(value)})`;
}
