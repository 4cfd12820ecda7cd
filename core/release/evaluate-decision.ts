import { agentChangeFindings, NO_PULL_REQUEST, type CommitAuthorship } from './agent-change-findings.js';
import type { AuthorshipBlock } from './authorship.js';
import { blocker, distinctBlockers, type Blocker, type Requirement } from './blocker.js';
import type { BoundWorkflow } from './bound-workflow.js';
import { changePaths } from './change-paths.js';
import type { CommitEvidence } from './evidence.js';
import type { Gate } from './gate.js';
import { requiredCheckFindings } from './required-check-findings.js';
import { requiredEvidenceFindings } from './required-evidence-findings.js';
import { pullRequestsAtHeadFindings } from './pull-requests-at-head.js';
import { ruleFindings } from './rule-findings.js';
import type { RuleResult } from '../evidence-content/judge-evidence-content.js';
import { workflowFindings } from './workflow-findings.js';

export type Decision = 'SHIP' | 'NO_SHIP';

export interface Evaluation {
  decision: Decision;
  blockers: Blocker[];
  explanation: Requirement[];
  /** Who made the commit's pull request, and which approvals counted. */
  authorship: AuthorshipBlock;
  /** The content rules applied to each required upload's document, by evidence name. */
  evidenceRules: Record<string, RuleResult[]>;
}

/**
 * The release decision for one commit: SHIP if and only if no blocker stands. Pure: the same
 * gate, evidence, workflows, authorship and clock always give the same answer. `commitSha` and
 * `authorship` matter only for the agent rules and the gate's `rules` (a commit no pull request names has none).
 */
export function evaluateDecision(
  gate: Gate,
  evidence: CommitEvidence,
  workflows: BoundWorkflow[],
  now: Date,
  commit: { sha: string; authorship: CommitAuthorship } = { sha: '', authorship: NO_PULL_REQUEST },
): Evaluation {
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
  const required = requiredEvidenceFindings(gate, evidence, now, commit.sha);
  const checks = requiredCheckFindings(gate, evidence.checkRuns, now, changePaths(commit.authorship));
  const areas = [checks, required, workflowFindings(gate, workflows)];
  const agentRules = agentChangeFindings(gate, commit.sha, workflows, commit.authorship);
  // The gate's rules and protected paths (docs/release-gate.md, "Rules"): their checks and evidence are evidence blockers.
  const rules = ruleFindings(gate, commit, evidence, now);
  // The head of more than one open pull request is judged by neither's facts (docs/release-gate.md, "One pull request per head").
  const heads = pullRequestsAtHeadFindings(commit.authorship.openPullRequests);
  for (const area of [...areas, agentRules, rules, heads]) explanation.push(...area.requirements);
  // With nothing recorded, every other evidence blocker would only restate this one; the
  // explanation still lists each requirement. The agent rules and rules' approvals say something else, so they stay.
  const evidenceBlockers = nothingRecorded ? [noEvidence] : [...areas.flatMap((a) => a.blockers), ...rules.evidenceBlockers];
  const blockers = distinctBlockers([...heads.blockers, ...evidenceBlockers, ...agentRules.blockers, ...rules.blockers]);
  return {
    decision: blockers.length === 0 ? 'SHIP' : 'NO_SHIP',
    blockers,
    explanation,
    authorship: rules.rules ? { ...agentRules.authorship, rules: rules.rules } : agentRules.authorship,
    evidenceRules: { ...rules.evidenceRules, ...required.ruleResults },
  };
}
