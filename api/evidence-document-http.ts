import { EVIDENCE_FILE_EXTENSIONS, MAX_EVIDENCE_DOCUMENT_BYTES } from '../core/evidence-content/evidence-format.js';
import { evidenceDocumentPath } from '../core/release/evidence.js';
import type { EvidenceRecord, StoredEvidenceDocument } from '../core/release/release-store.js';
import type { RouteResult } from './route.js';

/**
 * The body limit of POST /releases/evidence: 10 MiB of document is about 13.4 MiB of base64; up to 16 MiB the
 * document is refused with its own size, beyond it the body is refused unread (docs/release-gate.md, "Evidence read by content").
 */
export const EVIDENCE_BODY_BYTES = 16 * 1024 * 1024;

/** A 413 as the error middleware answers exposed HTTP errors: `{detail}`. */
class DocumentTooLarge extends Error {
  readonly status = 413;
  readonly expose = true;
}

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/**
 * 413 when the request's base64 `content` decodes to more than 10 MiB, told from its length alone: decoding it (and
 * checking it is base64) is left to the parse thread that reads the document (docs/operations.md, "Security").
 */
export function refuseOversizedContent(content: string | null): void {
  if (content === null) return;
  const padding = content.endsWith('==') ? 2 : content.endsWith('=') ? 1 : 0;
  const bytes = Math.floor(content.length / 4) * 3 - padding;
  if (bytes > MAX_EVIDENCE_DOCUMENT_BYTES) {
    throw new DocumentTooLarge(
      `The document is ${mib(bytes)} MiB (${bytes} bytes); shipgate reads documents of at most 10 MiB. Nothing was stored.`,
    );
  }
}

/** The evidence record as the API answers it: its document with where to download it. */
export function evidenceRecordBody(record: EvidenceRecord) {
  return { ...record, document: record.document && { ...record.document, download_url: evidenceDocumentPath(record.id) } };
}

/** A file name from the evidence name: letters, digits, `.`, `_`, `-` only, so the header needs no quoting rules. */
function fileName(doc: StoredEvidenceDocument): string {
  const base =
    doc.evidence_name
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/^[._]+/, '')
      .slice(0, 100) || 'evidence';
  return `${base}.${EVIDENCE_FILE_EXTENSIONS[doc.format]}`;
}

/** The exact bytes, as an attachment with its format's media type, never sniffed or rendered (docs/release-gate.md, "Evidence read by content"). */
export function evidenceDocumentDownload(doc: StoredEvidenceDocument): RouteResult {
  return {
    body: Buffer.from(doc.bytes),
    headers: {
      'Content-Type': doc.media_type,
      'Content-Disposition': `attachment; filename="${fileName(doc)}"`,
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'Cache-Control': 'private, no-cache',
    },
  };
}
