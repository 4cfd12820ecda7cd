import type { PublicJwk } from './types.js';

/** Storage port of the service's public signing keys (current and retired). Implemented in db/. */
export interface SigningKeyStore {
  /**
   * Makes `jwk` the current key (registering it if new) and marks every other current key
   * retired. Idempotent for the key that is already current. Returns every key after the change.
   */
  makeCurrent(jwk: PublicJwk): Promise<PublicJwk[]>;
  /** Every key, current first, then retired ones newest first. */
  list(): Promise<PublicJwk[]>;
}
