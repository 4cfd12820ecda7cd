import { blocker, distinctBlockers, type Blocker, type Requirement } from './blocker.js';
import type { BoundWorkflow } from './bound-workflow.js';
import type { CommitEvidence } from './evidence.js';
import type { Gate } from './gate.js';
import { requiredCheckFindings } from './required-check-findings.js';
import { requiredEvidenceFindings } from './required-evidence-findings.js';
import { workflowFindings } from './workflow-findings.js';

export type Decision = 'SHIP' | 'NO_SHIP';

export interface Evaluation {
  decision: Decision;
  blockers: Blocker[];
  explanation: Requirement[];
}

/**
 * The release decision for one commit: SHIP if and only if no blocker stands. Pure: the same
 * gate, evidence, workflows and clock always give the same answer.
 */
export function evaluateDecision(gate: Gate, evidence: CommitEvidence, workflows: BoundWorkflow[], now: Date): Evaluation {
  const nothingRecorded = evidence.checkRuns.length === 0 && evidence.uploads.length === 0 && workflows.length === 0;
  const noEvidence = blocker(
    'no_evidence',
    'commit',
    'Nothing is recorded for this commit: no check runs, no uploaded evidence, no bound workflows.',
    'Run CI on this commit, upload evidence for it, or run a workflow bound to it (repo_root and commit_sha).',
  );
  const explanation: Requirement[] = [
    {
      policy: 'evidence',
      requirement: 'Something is recorded for this commit (check runs, uploaded evidence or bound workflows).',
      satisfied: !nothingRecorded,
      remediation: nothingRecorded ? noEvidence.remediation_suggestion : null,
    },
  ];
  const areas = [
    requiredCheckFindings(gate, evidence.checkRuns, now),
    requiredEvidenceFindings(gate, evidence.uploads, now),
    workflowFindings(gate, workflows),
  ];
  for (const area of areas) explanation.push(...area.requirements);
  // With nothing recorded, every other blocker would only restate this one; the explanation still lists each requirement.
  const blockers = nothingRecorded ? [noEvidence] : distinctBlockers(areas.flatMap((a) => a.blockers));
  return { decision: blockers.length === 0 ? 'SHIP' : 'NO_SHIP', blockers, explanation };
}
