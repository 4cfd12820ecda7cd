import type { ProviderName } from '../agent/provider.js';
import type { DroppedPermission, PolicyRef, StageRole } from '../policies/policy.js';

export const WORKFLOW_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type WorkflowStatus = (typeof WORKFLOW_STATUSES)[number];
export const UNFINISHED_WORKFLOW: readonly WorkflowStatus[] = ['queued', 'running'];

export const STAGE_STATUSES = ['pending', 'running', 'completed', 'failed', 'blocked', 'skipped', 'cancelled'] as const;
export type StageStatus = (typeof STAGE_STATUSES)[number];

/** The interface's limits on a workflow request (see docs/workflows.md, "Workflows: reviewed releases"). */
export const WORKFLOW_LIMITS = {
  nameMax: 160,
  descriptionMax: 400,
  stagesMin: 1,
  stagesMax: 12,
  stageNameMax: 120,
  budgetMin: 100,
  budgetMax: 1_000_000,
  budgetDefault: 1500,
  apiKeyMin: 8,
} as const;

/** A stage id given by the client: later stages name it in upstream_stage_ids. */
export const STAGE_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/** Characters of a stage's output shown in the workflow record; the whole output is in the execution. */
export const OUTPUT_SUMMARY_CHARS = 180;

/** One stage as the API returns it. Never holds its provider key. */
export interface WorkflowStage {
  id: string;
  name: string;
  task: string;
  stage_role: StageRole;
  compliance_policy: string;
  budget_cents: number;
  provider: ProviderName;
  model: string;
  permissions: string[];
  dropped_permissions: DroppedPermission[];
  upstream_stage_ids: string[];
  status: StageStatus;
  execution_id: string | null;
  /** Why a release stage was not admitted: `not_completed:<stage>`, `non_compliant:<stage>`, `not_approved:<stage>`, `certificate_invalid:<stage>`. */
  blocked_reasons: string[];
  /** The first 180 characters of the stage execution's output. */
  output_summary: string | null;
  started_at: string | null;
  finished_at: string | null;
}

export interface Workflow {
  id: string;
  name: string;
  description: string | null;
  status: WorkflowStatus;
  owner_id: string;
  repo_root: string | null;
  commit_sha: string | null;
  stages: WorkflowStage[];
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** A stage as planned at creation: policy, permissions, provider and model resolved. */
export interface NewWorkflowStage {
  id: string;
  name: string;
  task: string;
  stage_role: StageRole;
  policy: PolicyRef;
  budget_cents: number;
  provider: ProviderName;
  model: string;
  /** Stored sealed, handed to the stage's execution when it starts, erased when the stage ends. */
  api_key?: string;
  permissions: string[];
  dropped_permissions: DroppedPermission[];
  upstream_stage_ids: string[];
}

export interface NewWorkflow {
  owner_id: string;
  name: string;
  description: string | null;
  repo_root: string | null;
  commit_sha: string | null;
  stages: NewWorkflowStage[];
}
