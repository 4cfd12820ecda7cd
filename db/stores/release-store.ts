import type { Knex } from 'knex';
import type { ReleaseStore } from '../../core/release/release-store.js';
import type { CachingVerifier } from './release-caching-verifier.js';
import { createEvidenceStore } from './release-evidence-store.js';
import { createGateStore } from './release-gate-store.js';
import { createPromotionStore } from './release-promotion-store.js';
import { createSnapshotStore } from './release-snapshot-store.js';

/** The release gate's storage: gates, evidence and refs, snapshots, promotions; `verifier` checks bound certificates. */
export function createReleaseStore(db: Knex, verifier: CachingVerifier): ReleaseStore {
  return { ...createGateStore(db), ...createEvidenceStore(db), ...createSnapshotStore(db, verifier), ...createPromotionStore(db) };
}
