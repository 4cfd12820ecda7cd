import type { Knex } from 'knex';
import type { ResourceUris } from '../../../core/certificates/resource-uris.js';
import type { Signer, Verifier } from '../../../core/certificates/types.js';
import type { ReleasePorts } from '../../../core/release/release-ports.js';
import { createCachingVerifier } from '../../../core/release/caching-verifier.js';
import { rememberCommits } from '../../../core/release/last-value-memo.js';
import { createReleaseStore } from './postgres-release-store.js';
import { createOverrideStore } from './postgres-override-store.js';
import { createWorkerHeartbeatStore } from './worker-heartbeats.js';

/**
 * The release gate's ports over PostgreSQL, signing with the service key; the decision's cache
 * keeps up to `cachedCommits` commits' state (SHIPGATE_DECISION_CACHE_COMMITS).
 */
export function createReleasePorts(db: Knex, signer: Signer, verifier: Verifier, uris: ResourceUris, cachedCommits: number): ReleasePorts {
  const heartbeats = createWorkerHeartbeatStore(db);
  // A polled commit's judgement, digest and answer text are kept for as many commits as its state (docs/operations.md).
  rememberCommits(cachedCommits);
  return {
    store: createReleaseStore(db, cachedCommits),
    overrides: createOverrideStore(db),
    signer,
    verifier,
    cachingVerifier: createCachingVerifier(verifier),
    uris,
    latestWorkerHeartbeat: () => heartbeats.latest(),
  };
}
