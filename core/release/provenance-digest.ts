import { canonicalDigest, sha256Hex } from '../canonical-json.js';
import type { Blocker } from './blocker.js';
import type { Provenance } from './snapshot.js';

const CAPACITY = 10_000;
const remembered = new Map<string, string>();

/**
 * The canonical digest of a decision's provenance and blockers (the snapshot's address),
 * remembered per process by the SHA-256 of their plain JSON text: equal JSON texts are equal
 * JSON values, so their canonical forms are equal too. A commit polled again with unchanged
 * evidence then skips canonicalisation, which costs about four JSON.stringify of the same value.
 * Bounded: oldest entries go first.
 */
export function provenanceDigest(addressed: { provenance: Provenance; blockers: Blocker[] }): string {
  const key = sha256Hex(JSON.stringify(addressed));
  const known = remembered.get(key);
  if (known) return known;
  const digest = canonicalDigest(addressed);
  if (remembered.size >= CAPACITY) remembered.delete(remembered.keys().next().value!);
  remembered.set(key, digest);
  return digest;
}
