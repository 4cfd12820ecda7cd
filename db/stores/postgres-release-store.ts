import type { Knex } from 'knex';
import type { ReleaseStore } from '../../core/release/release-store.js';
import type { CachingVerifier } from './release-caching-verifier.js';
import { createEvidenceStore } from './release-evidence-store.js';
import { createGateStore } from './release-gate-store.js';
import { createPromotionStore } from './release-promotion-store.js';
import { createSnapshotStore } from './release-snapshot-store.js';

/**
 * The release gate's storage: gates, evidence and refs, snapshots, promotions; `verifier` checks
 * bound certificates; the state of up to `cachedCommits` commits is kept for the decision.
 */
export function createReleaseStore(db: Knex, verifier: CachingVerifier, cachedCommits: number): ReleaseStore {
  return {
    ...createGateStore(db),
    ...createEvidenceStore(db),
    ...createSnapshotStore(db, verifier, cachedCommits),
    ...createPromotionStore(db),
  };
}
