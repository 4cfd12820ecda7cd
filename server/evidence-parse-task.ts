import type { MessagePort } from 'node:worker_threads';
import { EvidenceDocumentInvalid } from '../core/errors.js';
import type { EvidenceFormat } from '../core/evidence-content/evidence-format.js';
import type { ReadEvidenceDocument } from '../core/evidence-content/evidence-parser.js';
import type { ProvenanceKey } from '../core/evidence-content/provenance-keys.js';
import { readEvidenceDocument } from '../core/evidence-content/read-evidence-document.js';

/** One upload's document for a parse thread (server/thread-pool-evidence-parser.ts). */
export interface EvidenceParseTask {
  /** The upload's base64 `content`. */
  content: string;
  declared: EvidenceFormat | null;
  keys: readonly ProvenanceKey[];
  /** Told the wall-clock time (Date.now()) the thread starts the task: the deadline runs from then, not from when it was queued. */
  started: MessagePort;
}

/**
 * What a parse thread answers. A thrown error crosses the thread boundary as a plain Error (its class and `loc` are
 * lost), so a document that does not read is an answer, and the pool throws EvidenceDocumentInvalid again.
 */
export type EvidenceParseOutcome = { read: ReadEvidenceDocument } | { invalid: { loc: (string | number)[]; message: string } };

/** Runs in a worker thread: readEvidenceDocument, after saying when it started. */
export async function parseEvidenceTask({ content, declared, keys, started }: EvidenceParseTask): Promise<EvidenceParseOutcome> {
  started.postMessage(Date.now());
  started.close();
  try {
    return { read: await readEvidenceDocument(content, declared, keys) };
  } catch (error) {
    if (error instanceof EvidenceDocumentInvalid) return { invalid: { loc: error.loc, message: error.message } };
    throw error;
  }
}
