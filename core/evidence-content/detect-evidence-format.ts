import type { EvidenceFormat } from './evidence-format.js';
import { isRecord } from './document-text.js';

const XML_ROOT = /^\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--[\s\S]*?-->\s*)*<(testsuites|testsuite)[\s/>]/;

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
  if (start.startsWith('<')) return XML_ROOT.test(start.slice(0, 64 * 1024)) ? 'junit' : null;
  if (!start.startsWith('{')) return null;
  try {
    return detectJsonFormat(JSON.parse(text));
  } catch {
    return null;
  }
}
