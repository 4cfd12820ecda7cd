import { sha256Hex } from '../canonical-json.js';
import { decodeStrictBase64 } from '../certificates/strict-base64.js';
import { EvidenceDocumentInvalid } from '../errors.js';
import type { EvidenceFormat } from './evidence-format.js';
import type { ReadEvidenceDocument } from './evidence-parser.js';
import { parseEvidenceDocument } from './parse-evidence-document.js';
import type { ProvenanceKey } from './provenance-keys.js';

/**
 * Everything an upload's document costs per byte, from its base64 `content` (docs/release-gate.md, "Evidence read by
 * content"): decoding it (standard base64 with padding, in its one canonical spelling), its SHA-256, and
 * parseEvidenceDocument. The server runs it in a worker thread (core's EvidenceParser port), so none of it holds the
 * event loop. Content that is not base64 throws EvidenceDocumentInvalid at loc [] (the `content` member itself).
 */
export async function readEvidenceDocument(
  content: string,
  declared: EvidenceFormat | null,
  keys: readonly ProvenanceKey[],
): Promise<ReadEvidenceDocument> {
  const bytes = decodeStrictBase64(content);
  if (!bytes) {
    throw new EvidenceDocumentInvalid([], 'The content is not standard base64 (RFC 4648 with its padding, no line breaks or spaces).');
  }
  const { format, summary } = await parseEvidenceDocument(bytes, declared, keys);
  return { bytes, digest: `sha256:${sha256Hex(bytes)}`, format, summary };
}
