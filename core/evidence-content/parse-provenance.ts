import { EvidenceDocumentInvalid } from '../errors.js';
import type { ProvenanceSummary } from './evidence-summary.js';
import type { ProvenanceKey } from './provenance-keys.js';

export function parseProvenance(_value: unknown, _keys: readonly ProvenanceKey[]): ProvenanceSummary {
  throw new EvidenceDocumentInvalid([], 'Provenance is not read yet.');
}
