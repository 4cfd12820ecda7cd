import type { ApprovalRefusal, AuthorshipBlock, JudgedApproval } from './authorship.js';
import { changedFilesText } from './changed-files-text.js';
import { deepFreeze, isDeeplyFrozen } from '../deep-freeze.js';
import type { ChangedFilesSummary } from './rule-outcome.js';

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
/** The authorship block as the decision serves it: approvals' reasons and the changed files in words. */
export type DescribedAuthorship = Omit<AuthorshipBlock, 'approvals' | 'changed_files'> & {
  approvals: DescribedApproval[];
  changed_files?: ChangedFilesSummary & { text: string };
};

export function approvalReasonText(reason: ApprovalRefusal | null): string | null {
  return reason ? REFUSAL_TEXTS[reason] : null;
}

/**
 * The authorship block with each approval's reason and the changed files in words, for the
 * decision's answer. Added there and not where approvals are judged: the block is part of the
 * snapshot's content, whose address would change with the words.
 */
export function describeAuthorship(block: AuthorshipBlock): DescribedAuthorship {
  if (!isDeeplyFrozen(block)) return described(block);
  let words = describedBlocks.get(block);
  if (!words) {
    words = deepFreeze(described(block));
    describedBlocks.set(block, words);
  }
  return words;
}

/**
 * Each remembered judgement's authorship in words (core/release/remembered-judgement.ts: a commit polled with nothing
 * changed has the same frozen block), so its answer is found the same by identity (core/release/decision-answer-json.ts).
 */
const describedBlocks = new WeakMap<AuthorshipBlock, DescribedAuthorship>();

function described(block: AuthorshipBlock): DescribedAuthorship {
  const { changed_files: files, ...rest } = block;
  return {
    ...rest,
    approvals: block.approvals.map((a) => ({ ...a, reason_text: approvalReasonText(a.reason) })),
    ...(files ? { changed_files: { ...files, text: changedFilesText(files) } } : {}),
  };
}
