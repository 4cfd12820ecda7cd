import type { Blocker } from '../release/blocker.js';
import { decisionUrl } from '../release/decision-url.js';
import type { Gate } from '../release/gate.js';
import type { SnapshotStatus } from '../release/snapshot.js';
import { clipToBytes, fitParts } from './fit-to-bytes.js';
import { formatGateFileProblem, type GateFileProblem } from './gate-file-problems.js';
import { DEPLOYMENT_COMMENT_MAX_BYTES } from './github-limits.js';
import { isWaiting, waitingFor, type DecisionView } from './release-check-content.js';

export interface DeploymentFacts {
  view: DecisionView;
  gate: Gate;
  environment: string;
  snapshot_status: SnapshotStatus;
  requested_at: Date;
  now: Date;
}

export type DeploymentOutcome =
  | { kind: 'wait'; until: Date }
  | { kind: 'answer'; state: 'approved' | 'rejected'; timed_out: boolean; headline: string; reasons: string[] };

/** GitHub environment names are case-insensitive. */
function requirementsOf(gate: Gate, environment: string) {
  const wanted = environment.toLowerCase();
  const key = Object.keys(gate.environments).find((name) => name.toLowerCase() === wanted);
  return key === undefined ? { require_attested: false } : gate.environments[key];
}

const ATTESTED: SnapshotStatus[] = ['attested', 'promoted'];
const blockerLine = (b: Blocker) => `${b.code} (${b.component}): ${b.reason}`;

/**
 * Whether to answer a deployment now and how. While only blockers time can clear stand in the
 * way (`isWaiting`: checks pending or not reported yet, evidence not uploaded yet) it waits,
 * until `deployment_wait_seconds` after the request; then it is rejected as timed out. SHIP
 * approves unless the environment asks for more (`require_attested`: the decision's
 * snapshot must have been attested or promoted through /releases/promote).
 */
export function deploymentOutcome(facts: DeploymentFacts): DeploymentOutcome {
  const { view, gate, environment } = facts;
  if (view.config_problems.length > 0) {
    return {
      kind: 'answer',
      state: 'rejected',
      timed_out: false,
      headline: 'NO_SHIP: .github/shipgate.yml is invalid',
      reasons: view.config_problems.map((p: GateFileProblem) => formatGateFileProblem(p)),
    };
  }
  if (isWaiting(view)) {
    const until = new Date(facts.requested_at.getTime() + gate.deployment_wait_seconds * 1000);
    if (facts.now < until) return { kind: 'wait', until };
    return {
      kind: 'answer',
      state: 'rejected',
      timed_out: true,
      headline: `Timed out after ${gate.deployment_wait_seconds} s waiting for ${waitingFor(view.blockers)}`,
      reasons: view.blockers.map(blockerLine),
    };
  }
  if (view.decision !== 'SHIP') {
    const count = view.blockers.length;
    return {
      kind: 'answer',
      state: 'rejected',
      timed_out: false,
      headline: `NO_SHIP: ${count} blocker${count === 1 ? '' : 's'}`,
      reasons: view.blockers.map(blockerLine),
    };
  }
  if (requirementsOf(gate, environment).require_attested && !ATTESTED.includes(facts.snapshot_status)) {
    return {
      kind: 'answer',
      state: 'rejected',
      timed_out: false,
      headline: `SHIP, but ${environment} requires an attested release`,
      reasons: [
        `The decision's snapshot is ${facts.snapshot_status}: attest it with POST /releases/promote (target_status attested), then re-run the deployment.`,
      ],
    };
  }
  return { kind: 'answer', state: 'approved', timed_out: false, headline: 'SHIP', reasons: [] };
}

/** How much of the headline and of each reason the review comment keeps, so several reasons fit. */
const DEPLOYMENT_LINE_MAX_BYTES = 300;

/**
 * The review comment, within DEPLOYMENT_COMMENT_MAX_BYTES: the decision, as many of the first
 * blockers as fit and how many are left, and the link to the decision (always kept whole).
 * Deterministic for the same outcome.
 */
export function deploymentComment(outcome: Extract<DeploymentOutcome, { kind: 'answer' }>, view: DecisionView, publicUrl: string): string {
  const verb = outcome.state === 'approved' ? 'approved' : 'rejected';
  const head = `shipgate ${verb} this deployment of ${view.commit_sha.slice(0, 12)}: ${clipToBytes(outcome.headline, DEPLOYMENT_LINE_MAX_BYTES)}.`;
  const link = `Decision: ${decisionUrl(publicUrl, view.repo_root, view.commit_sha)}`;
  return fitParts(
    [
      { lines: [head] },
      {
        items: outcome.reasons.map((reason) => `- ${clipToBytes(reason, DEPLOYMENT_LINE_MAX_BYTES)}`),
        more: (left) => `(and ${left} more)`,
      },
      { lines: [link] },
    ],
    DEPLOYMENT_COMMENT_MAX_BYTES,
  );
}
