import { isWaitable, type Blocker, type Requirement } from './blocker.js';
import type { Decision } from './evaluate-decision.js';
import type { Gate } from './gate.js';
import { gateInForce } from './gate-in-force.js';
import { allowedPromotions, type PromotionTarget } from './promotion.js';
import { provenanceDigest } from './provenance-digest.js';
import type { ReleasePorts } from './release-ports.js';
import { readCommitState } from './read-commit-state.js';
import { toBaseline, type Baseline, type Provenance, type SnapshotHead, type SnapshotStatus } from './snapshot.js';
import { describeAuthorship, type DescribedAuthorship } from './approval-reason-text.js';
import { withContent, type DecisionEvidence } from './decision-evidence.js';
import { overrideBindings, type OverriddenBlockers } from './apply-overrides.js';
import { judgeCommitRemembered } from './remembered-judgement.js';

export interface ReleaseDecision {
  decision: Decision;
  repo_root: string;
  commit_sha: string;
  snapshot_id: string;
  snapshot_status: SnapshotStatus;
  /** Where the snapshot may be promoted to now (`allowedPromotions`). */
  allowed_promotions: PromotionTarget[];
  /** Each with whether time alone can clear it (`isWaitable`), so clients need not know the codes. */
  blockers: (Blocker & { waitable: boolean })[];
  /** The overrides in force and the blockers each lifted (docs/release-gate.md, "Overrides"); empty when none. */
  overridden: (Omit<OverriddenBlockers, 'blockers'> & { blockers: (Blocker & { waitable: boolean })[] })[];
  explanation: Requirement[];
  /**
   * The snapshot's provenance but its authorship, which is `authorship` (served once: with rules over thousands of files
   * it is most of the answer, docs/api.md); each upload with a document also carries its summary and rule results
   * (`withContent`).
   */
  provenance: Omit<Provenance, 'authorship'> & { evidence_digest: string; evidence: DecisionEvidence[] };
  /**
   * Who made the change (docs/release-gate.md, "Agents on pull requests"), each approval with its reason in words
   * (`describeAuthorship`); `status: no_pull_request` when unknown. Unless unknown, the snapshot binds it.
   */
  authorship: DescribedAuthorship;
  baseline: Baseline | null;
  gate: Gate & { version: number; digest: string; source: string };
  evaluated_at: string;
}

/**
 * Evaluates a commit now and content-addresses the result: unchanged evidence (and outcome)
 * returns the commit's latest snapshot without writing; anything else stores a new one.
 * One indexed round trip for the commit's state (`readCommitState`; plus a write when the
 * evidence changed), whatever the history size.
 */
export async function decideRelease(
  ports: ReleasePorts,
  repoRoot: string,
  commitSha: string,
  now = new Date(),
): Promise<{ decision: ReleaseDecision; snapshot: SnapshotHead }> {
  const { store } = ports;
  const { gate: gateVersion, latest, attested, ...read } = await readCommitState(ports, repoRoot, commitSha);
  const gate = gateInForce(repoRoot, gateVersion);
  // A commit polled with nothing changed gets its last judgement, and the state it was judged from, again.
  const { judged, state } = judgeCommitRemembered(repoRoot, gate.gate, read, commitSha, now);
  const { overridden, ...evaluation } = judged;
  const { evidence, workflows } = state;
  const provenance: Provenance = {
    gate: { version: gate.version, digest: gate.digest },
    check_runs: evidence.checkRuns,
    evidence: evidence.uploads,
    workflows,
    // In the snapshot's content, so its id and a promotion's statement cover who approved.
    ...(evaluation.authorship.status === 'no_pull_request' ? {} : { authorship: evaluation.authorship }),
    // In the snapshot's content too, so an attested release says it shipped by override, and an expiry makes a new snapshot.
    ...(overridden.length > 0 ? { overrides: overrideBindings(overridden) } : {}),
  };
  // The outcome is part of the address: evidence that went stale with time is a new snapshot.
  const digest = provenanceDigest({ provenance, blockers: evaluation.blockers }, { repoRoot, sha: commitSha });
  const snapshot =
    latest?.evidence_digest === digest
      ? latest
      : await store.saveSnapshot({
          repo_root: repoRoot,
          commit_sha: commitSha,
          evidence_digest: digest,
          decision: evaluation.decision,
          blockers: evaluation.blockers,
          provenance,
        });
  const baseline = attested.find((s) => s.id !== snapshot.id);
  const { authorship: _servedAsAuthorship, ...evaluated } = provenance;
  return {
    snapshot,
    decision: {
      decision: evaluation.decision,
      repo_root: repoRoot,
      commit_sha: commitSha,
      snapshot_id: snapshot.id,
      snapshot_status: snapshot.status,
      allowed_promotions: allowedPromotions(snapshot.status, evaluation.decision),
      blockers: evaluation.blockers.map((b) => ({ ...b, waitable: isWaitable(b) })),
      overridden: overridden.map((o) => ({ ...o, blockers: o.blockers.map((b) => ({ ...b, waitable: isWaitable(b) })) })),
      explanation: evaluation.explanation,
      provenance: {
        evidence_digest: digest,
        ...evaluated,
        evidence: withContent(provenance.evidence, evidence, evaluation.evidenceRules),
      },
      authorship: describeAuthorship(evaluation.authorship),
      baseline: baseline ? toBaseline(baseline) : null,
      gate: { ...gate.gate, version: gate.version, digest: gate.digest, source: gate.source },
      evaluated_at: now.toISOString(),
    },
  };
}
