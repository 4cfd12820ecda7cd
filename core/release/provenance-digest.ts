import { canonicalDigest, sha256Hex } from '../canonical-json.js';
import type { Blocker } from './blocker.js';
import { createLastValueMemo } from './last-value-memo.js';
import type { Provenance } from './snapshot.js';

type Addressed = { provenance: Provenance; blockers: Blocker[] };

const CAPACITY = 10_000;
const remembered = new Map<string, string>();

/** Each commit's last provenance and blockers (a few KB each: what they share with other polls is held once). */
const lastOfCommit = createLastValueMemo<Addressed, string>();

/**
 * The canonical digest of a decision's provenance and blockers (the snapshot's address). A commit polled again with
 * the same provenance and blockers as its last poll gets the digest of then without serialising anything: comparing
 * walks only what the poll rebuilt, since the rules judged once per pull request's facts are shared (docs/
 * benchmarks.md). Otherwise the digest is remembered per process by the SHA-256 of their plain JSON text: equal JSON
 * texts are equal JSON values, so their canonical forms are equal too, and canonicalisation (about four
 * JSON.stringify of the same value) is skipped. Both bounded: oldest entries go first.
 */
export function provenanceDigest(addressed: Addressed, commit?: { repoRoot: string; sha: string }): string {
  const commitKey = commit && `${commit.repoRoot}\n${commit.sha}`;
  const last = commitKey ? lastOfCommit.get(commitKey, addressed) : undefined;
  if (last) return last;
  const key = sha256Hex(JSON.stringify(addressed));
  let digest = remembered.get(key);
  if (!digest) {
    digest = canonicalDigest(addressed);
    if (remembered.size >= CAPACITY) remembered.delete(remembered.keys().next().value!);
    remembered.set(key, digest);
  }
  if (commitKey) lastOfCommit.set(commitKey, addressed, digest);
  return digest;
}
