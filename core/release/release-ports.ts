import type { ResourceUris } from '../certificates/resource-uris.js';
import type { Signer, Verifier } from '../certificates/types.js';
import type { CachingVerifier } from './certificate-validity.js';
import type { ReleaseStore } from './release-store.js';
import type { OverrideStore } from './override-store.js';

/** Everything the release gate's use cases need, wired once by the composition root. */
export interface ReleasePorts {
  store: ReleaseStore;
  /** Overrides of commits' blockers (docs/release-gate.md, "Overrides"); the decision reads them through `store`. */
  overrides: OverrideStore;
  signer: Signer;
  verifier: Verifier;
  /** Verifies the certificates bound to a decided commit, remembering each by its envelope's digest. */
  cachingVerifier: CachingVerifier;
  /** What promotion attestations name the gate version by (docs/attestations.md, "URIs"). */
  uris: ResourceUris;
  /** When any worker was last seen, or null if none ever was. */
  latestWorkerHeartbeat(): Promise<Date | null>;
}
