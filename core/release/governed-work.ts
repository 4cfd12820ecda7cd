import type { ExecutionStatus, Verdict } from '../executions/execution.js';
import type { BoundWorkflow } from './bound-workflow.js';
import type { WorkflowStatus } from '../workflows/workflow.js';

/** A workflow or a standalone execution bound to a commit, as far as governing it goes. */
export interface WorkOutcome {
  status: WorkflowStatus | ExecutionStatus;
  /** The verdict of each of its executions (a standalone execution: its own). */
  verdicts: readonly (Verdict | null)[];
}

/** Work bound to one of a pull request's commits, as the database reports it. */
export interface CommitWork extends WorkOutcome {
  sha: string;
}

/**
 * Governed work (docs/release-gate.md, `require_governed_work`): it completed and none of its
 * executions is non-compliant. A completed execution always has its verdict (core/agent/finish-run.ts),
 * so a standalone execution governs when it completed compliant. Sessions: session-coverage.ts.
 */
export function isGovernedWork(work: WorkOutcome): boolean {
  return work.status === 'completed' && work.verdicts.every((v) => v !== 'non_compliant');
}

/** A bound workflow as governed work. */
export function outcomeOfWorkflow(w: BoundWorkflow): WorkOutcome {
  return { status: w.status, verdicts: w.executions.map((e) => e.verdict) };
}

/** The commits that have governed work bound to them, each once, in code-unit order. */
export function governedCommits(work: readonly CommitWork[]): string[] {
  return [...new Set(work.filter(isGovernedWork).map((w) => w.sha))].sort();
}
