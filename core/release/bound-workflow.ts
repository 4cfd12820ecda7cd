import type { ExecutionStatus, Verdict } from '../executions/execution.js';
import type { StageStatus } from '../workflows/workflow.js';

/** One execution of a workflow bound to a commit, as the release gate needs to see it. */
export interface BoundExecution {
  execution_id: string;
  stage_id: string | null;
  stage_role: string;
  status: ExecutionStatus;
  verdict: Verdict | null;
  /** false when its execution certificate does not verify; null when it has none yet. */
  certificate_valid: boolean | null;
}

/**
 * A workflow bound to a commit as release evidence. A standalone execution (POST /tasks with
 * repo_root and commit_sha) counts as a one-stage workflow whose id is the execution's id.
 */
export interface BoundWorkflow {
  workflow_id: string;
  standalone: boolean;
  owner_id: string;
  status: ExecutionStatus;
  executions: BoundExecution[];
  /**
   * Release admission of its release stage: `admitted`, `not_admitted` (with reasons such as
   * `non_compliant:<stage>`), or `none` when it has no release stage.
   */
  release: { admission: 'admitted' | 'not_admitted' | 'none'; reasons: string[] };
  /** A workflow created with POST /workflows: every stage in order, including those that never got an execution. */
  stages?: BoundStage[];
}

/** One stage of a bound workflow, as the gate names it in blockers. */
export interface BoundStage {
  stage_id: string;
  stage_role: string;
  status: StageStatus;
  blocked_reasons: string[];
}
