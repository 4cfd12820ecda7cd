import type { EvidenceFormat } from './evidence-format.js';
import type { EvidenceSummary } from './evidence-summary.js';
import type { ProvenanceKey } from './provenance-keys.js';

/** What a document says: its format and the summary the gate's rules judge. */
export interface ParsedEvidenceDocument {
  format: EvidenceFormat;
  summary: EvidenceSummary;
}

/** An uploaded document, read: its exact bytes, their digest, its format and its summary. */
export interface ReadEvidenceDocument extends ParsedEvidenceDocument {
  bytes: Uint8Array;
  /** `sha256:<hex>` of the bytes, computed by shipgate, never taken from the client. */
  digest: string;
}

/**
 * Where an uploaded document is read (docs/release-gate.md, "Evidence read by content"): readEvidenceDocument, from
 * the upload's base64 `content` to bytes, digest, format and summary, with its EvidenceDocumentInvalid, run wherever
 * the adapter runs it. The server runs it off the event loop, in a pool of worker threads with a deadline on the
 * parse (`server/thread-pool-evidence-parser.ts`; docs/operations.md, "Security"): past the deadline it throws
 * EvidenceParseDeadlineExceeded, and nothing is stored.
 */
export interface EvidenceParser {
  read(content: string, declared: EvidenceFormat | null, keys: readonly ProvenanceKey[]): Promise<ReadEvidenceDocument>;
}
