import type { EvidenceFormat } from './evidence-format.js';
import { isRecord } from './document-text.js';

/** How far into a document its JUnit root element is looked for. */
const ROOT_SEARCH_CHARS = 64 * 1024;
const SPACE = /\s/;
const AFTER_ROOT_NAME = /[\s/>]/;

function skipSpace(text: string, at: number): number {
  while (at < text.length && SPACE.test(text[at])) at += 1;
  return at;
}

/**
 * Whether XML's root element is `<testsuites>` or `<testsuite>`: white space, an optional XML
 * declaration, comments and white space, then the root, within the first ROOT_SEARCH_CHARS.
 * Scanned in one pass that ends each comment at its first `-->`, as XML does: a backtracking
 * regex over the comments took exponential time on a few hundred bytes of them
 * (docs/operations.md, "Regular expressions").
 */
function hasJUnitRoot(document: string): boolean {
  const text = document.slice(0, ROOT_SEARCH_CHARS);
  let at = skipSpace(text, 0);
  if (text.startsWith('<?xml', at)) {
    const close = text.indexOf('>', at + '<?xml'.length);
    if (close < 0 || close - 1 < at + '<?xml'.length || text[close - 1] !== '?') return false;
    at = skipSpace(text, close + 1);
  }
  while (text.startsWith('<!--', at)) {
    const close = text.indexOf('-->', at + '<!--'.length);
    if (close < 0) return false;
    at = skipSpace(text, close + '-->'.length);
  }
  if (!text.startsWith('<testsuite', at)) return false;
  let after = at + '<testsuite'.length;
  if (text[after] === 's') after += 1;
  return after < text.length && AFTER_ROOT_NAME.test(text[after]);
}

/** The format an already-parsed JSON document looks like, or null: by its version fields and envelope shape. */
export function detectJsonFormat(value: unknown): EvidenceFormat | null {
  if (!isRecord(value)) return null;
  if (value.bomFormat === 'CycloneDX') return 'cyclonedx';
  if (typeof value.spdxVersion === 'string') return 'spdx';
  if (typeof value.payloadType === 'string' && 'signatures' in value) return 'provenance';
  if (typeof value._type === 'string' && value._type.startsWith('https://in-toto.io/Statement/')) return 'provenance';
  const schema = typeof value.$schema === 'string' ? value.$schema.toLowerCase() : '';
  if (schema.includes('sarif') || (typeof value.version === 'string' && Array.isArray(value.runs))) return 'sarif';
  return null;
}

/**
 * The format of a document, detected from its bytes (docs/release-gate.md, "Evidence read by content"): XML whose
 * root is `<testsuites>` or `<testsuite>` is JUnit; JSON by `bomFormat`, `spdxVersion`, a DSSE envelope or an in-toto
 * `_type`, or a SARIF `$schema` / `version` with `runs`. Null when it is none of them (or not text at all).
 */
export function detectEvidenceFormat(bytes: Uint8Array): EvidenceFormat | null {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  const start = text.trimStart();
  if (start.startsWith('<')) return hasJUnitRoot(start) ? 'junit' : null;
  if (!start.startsWith('{')) return null;
  try {
    return detectJsonFormat(JSON.parse(text));
  } catch {
    return null;
  }
}
