import { EvidenceDocumentInvalid } from '../errors.js';
import type { SbomSummary } from './evidence-summary.js';

export async function parseCyclonedx(_value: unknown, _text: string): Promise<SbomSummary> {
  throw new EvidenceDocumentInvalid([], 'CycloneDX documents are not read yet.');
}
