import type { CommitAuthorship } from '../release/agent-change-findings.js';
import { blocker, distinctBlockers, type Blocker } from '../release/blocker.js';
import type { BoundWorkflow } from '../release/bound-workflow.js';
import { evaluateDecision, type Decision } from '../release/evaluate-decision.js';
import type { CommitEvidence } from '../release/evidence.js';
import type { Gate } from '../release/gate.js';

export interface GroupHead {
  number: number;
  sha: string;
  evidence: CommitEvidence;
  workflows: BoundWorkflow[];
  /** Who made the pull request at this head: the group carries its agent rules. */
  authorship: CommitAuthorship;
}

/**
 * A merge group's decision, for real: the group commit's own check runs (CI runs on it), with the
 * uploaded evidence and bound work of each pull request head in the group. `unidentified` says
 * why the group's pull request could not be found: then it fails closed, never passes.
 */
export function evaluateMergeGroup(
  gate: Gate,
  group: CommitEvidence,
  heads: GroupHead[],
  unidentified: string | null,
  now: Date,
): { decision: Decision; blockers: Blocker[] } {
  if (unidentified !== null || heads.length === 0) {
    const reason = unidentified ?? 'The merge group names no pull request.';
    return {
      decision: 'NO_SHIP',
      blockers: [
        blocker(
          'release_not_admitted',
          'merge_group',
          reason,
          'Re-queue the pull request from its page, or run `/shipgate recheck` on it, so shipgate learns its head.',
        ),
      ],
    };
  }
  const blockers = heads.flatMap((head) => {
    const evidence = { checkRuns: group.checkRuns, uploads: head.evidence.uploads, contents: head.evidence.contents };
    const evaluation = evaluateDecision(gate, evidence, head.workflows, now, { sha: head.sha, authorship: head.authorship });
    return evaluation.blockers.map((b) => ({ ...b, reason: `PR #${head.number}: ${b.reason}` }));
  });
  const distinct = distinctBlockers(blockers);
  return { decision: distinct.length === 0 ? 'SHIP' : 'NO_SHIP', blockers: distinct };
}
