import { EvidenceDocumentInvalid } from '../errors.js';
import { detectEvidenceFormat, detectJsonFormat } from './detect-evidence-format.js';
import { documentText, parseJsonText } from './document-text.js';
import { EVIDENCE_FORMAT_TITLES, MAX_EVIDENCE_DOCUMENT_BYTES, type EvidenceFormat } from './evidence-format.js';
import type { EvidenceSummary } from './evidence-summary.js';
import { parseCyclonedx } from './parse-cyclonedx.js';
import { parseJunit } from './parse-junit.js';
import { parseProvenance } from './parse-provenance.js';
import { parseSarif } from './parse-sarif.js';
import { parseSpdx } from './parse-spdx.js';
import type { ParsedEvidenceDocument } from './evidence-parser.js';
import type { ProvenanceKey } from './provenance-keys.js';

async function summarise(format: EvidenceFormat, text: string, json: unknown, keys: readonly ProvenanceKey[]): Promise<EvidenceSummary> {
  if (format === 'junit') return parseJunit(text);
  const value = json === undefined ? parseJsonText(text) : json;
  if (format === 'sarif') return parseSarif(value);
  if (format === 'cyclonedx') return parseCyclonedx(value);
  if (format === 'spdx') return parseSpdx(value);
  return parseProvenance(value, keys);
}

/** The parsed JSON of a document that reads as JSON (so it is parsed once), else undefined. */
function jsonOrUndefined(text: string): unknown {
  if (!/^\s*[[{]/.test(text)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Reads an evidence document once, at upload (docs/release-gate.md, "Evidence read by content"): the declared
 * format, or the detected one, and the document's normalised summary. `keys` are the public keys the gate in force
 * names for provenance; the summary records which of them signed. Anything that does not read as the format throws
 * EvidenceDocumentInvalid with a loc inside the document, and nothing else is thrown for bad input.
 */
export async function parseEvidenceDocument(
  bytes: Uint8Array,
  declared: EvidenceFormat | null,
  keys: readonly ProvenanceKey[],
): Promise<ParsedEvidenceDocument> {
  if (bytes.length > MAX_EVIDENCE_DOCUMENT_BYTES) {
    throw new EvidenceDocumentInvalid([], `The document is larger than ${MAX_EVIDENCE_DOCUMENT_BYTES} bytes.`);
  }
  const text = documentText(bytes);
  const json = declared === 'junit' ? undefined : jsonOrUndefined(text);
  const format = declared ?? (json === undefined ? detectEvidenceFormat(bytes) : detectJsonFormat(json));
  if (!format) {
    throw new EvidenceDocumentInvalid(
      [],
      'The document’s format could not be detected: JUnit XML, SARIF 2.1.0, CycloneDX or SPDX 2.3 JSON, or in-toto provenance. Declare `format`.',
    );
  }
  try {
    return { format, summary: await summarise(format, text, json, keys) };
  } catch (error) {
    if (error instanceof EvidenceDocumentInvalid) throw error;
    // A library failing on hostile input (deep nesting, odd bytes) is still bad input, never a server error.
    throw new EvidenceDocumentInvalid([], `The document could not be read as a ${EVIDENCE_FORMAT_TITLES[format]}.`);
  }
}
