import type { ApprovalRefusal, AuthorshipBlock, JudgedApproval } from './authorship.js';

/**
 * Why an approval does not count, in words (docs/release-gate.md, "Agents on pull requests"):
 * the one table the check run's "Authorship" section and the decision's `reason_text` read, so
 * no client keeps a copy. A new refusal in `APPROVAL_REFUSALS` does not compile without its text.
 */
const REFUSAL_TEXTS: Record<ApprovalRefusal, string> = {
  dismissed: 'dismissed',
  withdrawn: 'withdrawn: changes requested since',
  changes_requested: 'changes requested',
  bot: 'a bot',
  agent: 'an agent',
  pull_request_author: 'the pull request’s author',
  commit_author: 'an author of its commits',
  committer: 'a committer of its commits',
  co_author: 'a co-author of its commits',
  assignee: 'assigned to the agent’s pull request',
  no_write_permission: 'no write permission',
  stale: 'approved an older head',
};

/** An approval as the decision serves it: its reason in words beside the code; null when it counts. */
export type DescribedApproval = JudgedApproval & { reason_text: string | null };
export type DescribedAuthorship = Omit<AuthorshipBlock, 'approvals'> & { approvals: DescribedApproval[] };

export function approvalReasonText(reason: ApprovalRefusal | null): string | null {
  return reason ? REFUSAL_TEXTS[reason] : null;
}

/**
 * The authorship block with each approval's reason in words, for the decision's answer. Added
 * there and not where approvals are judged: the block is part of the snapshot's content, whose
 * address would change with the words.
 */
export function describeApprovals(block: AuthorshipBlock): DescribedAuthorship {
  return { ...block, approvals: block.approvals.map((a) => ({ ...a, reason_text: approvalReasonText(a.reason) })) };
}
