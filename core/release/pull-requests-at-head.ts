import type { AuthorshipRecord } from './authorship.js';
import { blocker, type Findings } from './blocker.js';
import type { MergeGroupPullRequest } from './merge-group-authorship.js';

const numbers = (open: readonly number[]) => open.map((n) => `#${n}`).join(', ');

/**
 * The authorship a commit is judged by, given the open pull requests whose head it is (docs/release-gate.md, "One
 * pull request per head"). Authorship is stored per head commit, the last read pull request's, so:
 * - the head of more than one open pull request is judged by neither's facts (unreadable: every rule that needs them
 *   fails closed, and `pullRequestsAtHeadFindings` says why);
 * - the head of one open pull request whose stored facts are another's (a closed decoy's), or a merge group's commit
 *   whose pull request's head holds another's, is pending until that pull request is read again.
 * A commit no open pull request names keeps what was stored (a merge group's, a closed pull request's).
 */
export function authorshipAtHead(
  record: AuthorshipRecord | null,
  group: MergeGroupPullRequest | null,
  open: readonly number[],
): AuthorshipRecord | null {
  if (open.length > 1) {
    const reason = `This commit is the head of ${open.length} open pull requests (${numbers(open)}), so whose facts decide it is ambiguous.`;
    return { number: open[0], status: 'unreadable', reason, facts: null };
  }
  const owner = open.length === 1 ? open[0] : group?.number;
  if (record && owner !== undefined && owner !== null && record.number !== owner) {
    return { number: owner, status: 'pending', reason: null, facts: null };
  }
  return record;
}

/** NO_SHIP while the commit is the head of more than one open pull request (`pull_request_ambiguous`). */
export function pullRequestsAtHeadFindings(open: readonly number[] | undefined): Findings {
  if (!open || open.length < 2) return { requirements: [], blockers: [] };
  const found = blocker(
    'pull_request_ambiguous',
    `pull_requests:${open.join(',')}`,
    `This commit is the head of ${open.length} open pull requests (${numbers(open)}); each may merge into another branch with other files, labels, assignees and reviews, so it is judged by neither.`,
    `Close all but one of ${numbers(open)}, or push a new commit to one of them; then the one left open decides.`,
  );
  const requirement = {
    policy: 'pull_requests',
    requirement: 'The commit is the head of at most one open pull request.',
    satisfied: false,
    remediation: found.remediation_suggestion,
  };
  return { requirements: [requirement], blockers: [found] };
}
