import type { Knex } from 'knex';
import type { ReleaseStore } from '../../../core/release/release-store.js';
import { createEvidenceStore } from './postgres-evidence-store.js';
import { createGateStore } from './postgres-gate-store.js';
import { createPromotionStore } from './postgres-promotion-store.js';
import { createRecentCommitsReader } from './postgres-recent-commits-reader.js';
import { createSnapshotStore } from './postgres-snapshot-store.js';

/**
 * The release gate's storage: gates, evidence and refs, snapshots, promotions, the commits a gate simulation judges; the state of up to
 * `cachedCommits` commits is kept for the decision.
 */
export function createReleaseStore(db: Knex, cachedCommits: number): ReleaseStore {
  return {
    ...createGateStore(db),
    ...createEvidenceStore(db),
    ...createSnapshotStore(db, cachedCommits),
    ...createPromotionStore(db),
    ...createRecentCommitsReader(db),
  };
}
