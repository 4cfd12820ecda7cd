import { z } from 'zod';
import { EvidenceDocumentInvalid } from '../errors.js';
import { isRecord } from './document-text.js';
import type { SbomSummary } from './evidence-summary.js';
import { componentLabel, SbomTally } from './sbom-tally.js';
import { readWith } from './zod-loc.js';

const packageSchema = z.looseObject({
  name: z.string(),
  SPDXID: z.string().startsWith('SPDXRef-'),
  versionInfo: z.string().optional(),
  licenseConcluded: z.string().optional(),
  licenseDeclared: z.string().optional(),
});

/** The SPDX 2.3 document fields shipgate reads, the spec's required ones among them. */
const spdxSchema = z.looseObject({
  spdxVersion: z.literal('SPDX-2.3'),
  dataLicense: z.string(),
  SPDXID: z.literal('SPDXRef-DOCUMENT'),
  name: z.string(),
  documentNamespace: z.string(),
  creationInfo: z.looseObject({ created: z.string(), creators: z.array(z.string()).min(1) }),
  packages: z.array(packageSchema).optional(),
});

/** NOASSERTION (nobody looked) and NONE (no licence) both mean the package names no licence. */
function realLicense(value: string | undefined): string | null {
  const text = value?.trim() ?? '';
  return text === '' || text === 'NOASSERTION' || text === 'NONE' ? null : text;
}

/**
 * An SPDX 2.3 JSON SBOM (docs/release-gate.md, "Evidence read by content"). Each package is a component; its
 * licence is the concluded one, else the declared one.
 */
export function parseSpdx(value: unknown): SbomSummary {
  if (!isRecord(value)) throw new EvidenceDocumentInvalid([], 'An SPDX document is a JSON object.');
  if (value.spdxVersion !== 'SPDX-2.3') {
    throw new EvidenceDocumentInvalid(
      ['spdxVersion'],
      `SPDX 2.3 JSON is read; this document says ${JSON.stringify(value.spdxVersion ?? null)}.`,
    );
  }
  const document = readWith(spdxSchema, value, 'SPDX 2.3 document');
  const tally = new SbomTally();
  for (const pkg of document.packages ?? []) {
    const license = realLicense(pkg.licenseConcluded) ?? realLicense(pkg.licenseDeclared);
    tally.add(componentLabel(pkg.name, pkg.versionInfo), license ? [license] : []);
  }
  return tally.summary('spdx', 'SPDX-2.3');
}
