import { applyOverrides, type OverriddenBlockers } from './apply-overrides.js';
import { evaluateDecision, type Evaluation } from './evaluate-decision.js';
import type { Gate } from './gate.js';
import type { CommitState } from './read-commit-state.js';

/**
 * A commit's state judged by a gate at `now`: the gate's findings, then the overrides in force
 * lift the blockers they name; SHIP when none remains. The one judgement the decision and the
 * gate simulation share (docs/release-gate.md, "Overrides", "Simulating a gate").
 */
export function judgeCommit(
  gate: Gate,
  state: Pick<CommitState, 'evidence' | 'workflows' | 'authorship' | 'overrides'>,
  sha: string,
  now: Date,
): Evaluation & { overridden: OverriddenBlockers[] } {
  const judged = evaluateDecision(gate, state.evidence, state.workflows, now, { sha, authorship: state.authorship });
  const { remaining, overridden } = applyOverrides(judged.blockers, state.overrides, gate, now);
  return { ...judged, blockers: remaining, decision: remaining.length === 0 ? 'SHIP' : judged.decision, overridden };
}
