import type { PromotionFacts } from '../../../core/certificates/promotion-statement.js';

/** An attested promotion of `acme/api` at gate version 3, named by `gateUri`: what the promotion tests certify. */
export function promotionFacts(gateUri: string): PromotionFacts {
  return {
    repoRoot: 'acme/api',
    commitSha: 'a'.repeat(40),
    snapshotId: '33333333-3333-4333-8333-333333333333',
    evidenceDigest: '34'.repeat(32),
    gateDigest: '12'.repeat(32),
    gateUri,
    status: 'attested',
    releaseLabel: 'v1.2.0',
    timeVerified: '2024-05-01T00:00:00.000Z',
  };
}
