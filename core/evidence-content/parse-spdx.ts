import { EvidenceDocumentInvalid } from '../errors.js';
import type { SbomSummary } from './evidence-summary.js';

export function parseSpdx(_value: unknown): SbomSummary {
  throw new EvidenceDocumentInvalid([], 'SPDX documents are not read yet.');
}
