import type { BadgeFacts, SnapshotStore } from './release-store.js';
import { isBranchName, normalizeCommitSha, normalizeRefName, normalizeRepoRoot } from './github-identifiers.js';

export type BadgeLevel = 'Assured' | 'Blocked' | 'Unknown';

/** Badge colours (docs/release-gate.md, "Release gate": badge). */
export const BADGE_COLOURS: Record<BadgeLevel, string> = { Assured: '#4c1', Blocked: '#e05d44', Unknown: '#9f9f9f' };

/** `HEAD` falls back to the usual default branch names when no App recorded it. */
const HEAD_REFS = ['HEAD', 'main', 'master'];

/**
 * The trust level from the latest decision for a commit. A human's rejection or revocation
 * of that snapshot overrides a SHIP; a private badge says nothing.
 */
export function badgeLevel(facts: BadgeFacts | null): BadgeLevel {
  if (!facts || facts.public_badge === false || !facts.decision) return 'Unknown';
  if (facts.status === 'rejected' || facts.status === 'revoked') return 'Blocked';
  return facts.decision === 'SHIP' ? 'Assured' : 'Blocked';
}

/**
 * Resolves `repo` and `commit` (a SHA, `HEAD` or a branch) and answers the commit's trust level; a
 * `commit` that is neither names nothing, so its badge is Unknown, as an invalid repository's is.
 */
export async function trustBadgeLevel(store: SnapshotStore, repo: string, commit: string): Promise<BadgeLevel> {
  const repoRoot = normalizeRepoRoot(repo);
  if (!repoRoot) return 'Unknown';
  const sha = normalizeCommitSha(commit);
  const ref = normalizeRefName(commit);
  if (!sha && !isBranchName(ref)) return 'Unknown';
  const refs = sha ? [] : ref.toUpperCase() === 'HEAD' ? HEAD_REFS : [ref];
  return badgeLevel(await store.badgeFacts(repoRoot, sha, refs));
}
