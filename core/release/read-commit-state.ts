import { deepFreeze, isDeeplyFrozen } from '../deep-freeze.js';
import { judgeBoundWorkflows } from '../workflows/judge-bound-workflows.js';
import type { CommitAuthorship } from './agent-change-findings.js';
import type { AgentsConfig } from './agent-gate-fields.js';
import { agentsOfCommit } from './agent-identity.js';
import type { BoundWorkflow } from './bound-workflow.js';
import { certificateValidity, type CachingVerifier } from './certificate-validity.js';
import type { CommitEvidence } from './evidence.js';
import type { GateVersion } from './gate.js';
import { gateInForce } from './gate-in-force.js';
import { governedCommits } from './governed-work.js';
import { authorshipOfCommit } from './merge-group-authorship.js';
import { authorshipAtHead } from './pull-requests-at-head.js';
import type { CommitStateFacts, SnapshotStore } from './release-store.js';
import { sessionCoverageOf } from './session-coverage.js';
import type { SnapshotHead } from './snapshot.js';
import type { OverrideFact } from './override.js';

/** Everything a decision reads about a commit, judged: what `evaluateDecision` takes. */
export interface CommitState {
  gate: GateVersion | null;
  /** The newest check run and the newest upload of each name, sorted by name. */
  evidence: CommitEvidence;
  /** The workflows and executions bound to the commit, sorted by workflow_id. */
  workflows: BoundWorkflow[];
  /** The commit's latest snapshot: the one whose evidence was seen last. */
  latest: SnapshotHead | null;
  /** The repository's two latest attested-or-promoted snapshots (the caller skips its own). */
  attested: SnapshotHead[];
  /** Who made the pull request whose head this commit is, with the governed work on its other commits. */
  authorship: CommitAuthorship;
  /** The commit's unrevoked overrides, expired ones too (docs/release-gate.md, "Overrides"). */
  overrides: OverrideFact[];
}

/** What reading a commit's state needs: the store's reads and the verifier of bound certificates. */
export interface CommitStatePorts {
  store: Pick<SnapshotStore, 'commitFacts' | 'certificateEnvelopes' | 'sessionCoverage'>;
  cachingVerifier: CachingVerifier;
}

/**
 * Each cached commit's bound workflows as judged, kept while its executions and workflows are the objects the
 * decision's cache froze and its certificates verify alike: a commit polled with nothing changed gets the same frozen
 * workflows, so the memo of its judgement finds them the same by identity (core/release/remembered-judgement.ts).
 */
const judgedWorkflows = new WeakMap<object, { workflows: object; valid: ReadonlyMap<string, boolean>; judged: BoundWorkflow[] }>();

function boundWorkflowsOf(facts: Pick<CommitStateFacts, 'executions' | 'workflows'>, valid: ReadonlyMap<string, boolean>): BoundWorkflow[] {
  const { executions, workflows } = facts;
  if (!isDeeplyFrozen(executions) || !isDeeplyFrozen(workflows)) return judgeBoundWorkflows(executions, workflows, valid);
  const known = judgedWorkflows.get(executions);
  const sameValidity = (a: ReadonlyMap<string, boolean>) => a.size === valid.size && [...a].every(([id, ok]) => valid.get(id) === ok);
  if (known && known.workflows === workflows && sameValidity(known.valid)) return known.judged;
  const judged = deepFreeze(judgeBoundWorkflows(executions, workflows, valid));
  judgedWorkflows.set(executions, { workflows, valid: new Map(valid), judged });
  return judged;
}

/**
 * A commit's state for its decision: the store's facts (one round trip, or the change counts
 * alone when this process read them before: ARCHITECTURE.md, "Process-local state") with the
 * rules applied here: which certificates verify, how the bound executions make workflows and
 * whether their releases are admitted, which of the pull request's commits have governed work,
 * and which agent sessions count. Certificates new to this process are read and verified, and the
 * agent sessions that may cover a pull request's agent commits are read on every call (an open
 * session's denied call changes what it covers at once); a pull request without one reads none.
 */
export async function readCommitState(
  ports: CommitStatePorts,
  repoRoot: string,
  commitSha: string,
  /** Other gates' agents whose commits the caller judges too (a simulated draft's): their sessions are read as well. */
  otherAgents: AgentsConfig[] = [],
): Promise<CommitState> {
  const { store, cachingVerifier } = ports;
  const facts = await store.commitFacts(repoRoot, commitSha);
  const openPullRequests = facts.open_pull_requests;
  const record = authorshipAtHead(authorshipOfCommit(facts.authorship, facts.merge_group), facts.merge_group, openPullRequests);
  // Sessions cover only an agent's commits (agentChangeFindings): a person's pull request is polled without reading them.
  const agents = [gateInForce(repoRoot, facts.gate).gate.agents, ...otherAgents];
  const commits = record?.status === 'read' ? (record.facts?.commits ?? []) : [];
  const shas = commits.filter((c) => agents.some((a) => agentsOfCommit(c, a).length > 0)).map((c) => c.sha);
  const certificates = facts.executions.flatMap((e) => (e.certificate ? [e.certificate] : []));
  const [valid, sessions] = await Promise.all([
    certificateValidity(certificates, cachingVerifier, (ids) => store.certificateEnvelopes(ids)),
    shas.length > 0 ? store.sessionCoverage(repoRoot, shas) : undefined,
  ]);
  return {
    gate: facts.gate,
    evidence: facts.evidence,
    workflows: boundWorkflowsOf(facts, valid),
    latest: facts.latest,
    attested: facts.attested,
    authorship: {
      record,
      ...(openPullRequests.length > 0 ? { openPullRequests } : {}),
      governedCommits: governedCommits(facts.pull_request_work),
      ...(sessions ? { sessions: sessionCoverageOf(sessions) } : {}),
    },
    overrides: facts.overrides,
  };
}
