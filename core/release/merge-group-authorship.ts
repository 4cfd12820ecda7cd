import type { AuthorshipRecord } from './authorship.js';

/** What the App recorded about the merge group whose commit this is (its queue branch's pull request). */
export interface MergeGroupPullRequest {
  /** null: the group's branch is not a merge queue branch, so it names no pull request. */
  number: number | null;
  /** The pull request's head when the group was recorded; null when GitHub did not show it. */
  head_sha: string | null;
}

/**
 * The authorship a commit is judged by (docs/release-gate.md, "Agents on pull requests"): what
 * was read for it as the head of a pull request, else, for a merge group's commit, what was read
 * for the head of the group's pull request: the group carries that pull request's agent rules.
 * A group whose pull request is known but not read yet is pending; one whose pull request GitHub
 * did not show is unreadable. Either way a gate with agent rules does not ship it.
 */
export function authorshipOfCommit(record: AuthorshipRecord | null, group: MergeGroupPullRequest | null): AuthorshipRecord | null {
  if (record || !group || group.number === null) return record;
  if (group.head_sha === null) {
    const reason = `GitHub did not show pull request #${group.number} of this merge group.`;
    return { number: group.number, status: 'unreadable', reason, facts: null };
  }
  return { number: group.number, status: 'pending', reason: null, facts: null };
}
