import type { ProviderName } from '../../../core/agent/provider.js';
import type { DroppedPermission, StageRole } from '../../../core/policies/policy.js';
import type { StageStatus, Workflow, WorkflowStage, WorkflowStatus } from '../../../core/workflows/workflow.js';
import type { WorkflowRow, WorkflowStageRow } from '../../tables.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A stage row with the first characters of its execution's output (joined in). */
export type StageRowWithSummary = WorkflowStageRow & { output_summary: string | null };

/** The stage as the API shows it; never carries the key ciphertext. */
export function toWorkflowStage(row: StageRowWithSummary): WorkflowStage {
  return {
    id: row.stage_id,
    name: row.name,
    task: row.task,
    stage_role: row.stage_role as StageRole,
    compliance_policy: row.policy_name,
    budget_cents: row.budget_cents,
    provider: row.provider as ProviderName,
    model: row.model,
    permissions: row.permissions,
    dropped_permissions: row.dropped_permissions as DroppedPermission[],
    upstream_stage_ids: row.upstream_stage_ids,
    status: row.status as StageStatus,
    execution_id: row.execution_id,
    blocked_reasons: row.blocked_reasons,
    output_summary: row.output_summary,
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
  };
}

export function toWorkflow(row: WorkflowRow, stages: StageRowWithSummary[]): Workflow {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    status: row.status as WorkflowStatus,
    owner_id: row.owner_id,
    repo_root: row.repo_root,
    commit_sha: row.commit_sha,
    stages: stages.map(toWorkflowStage),
    created_at: row.created_at.toISOString(),
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
  };
}
