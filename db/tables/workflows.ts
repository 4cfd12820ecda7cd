// Workflows and their stages.

export interface WorkflowRow {
  id: string;
  owner_id: string;
  name: string;
  description: string | null;
  status: string;
  repo_root: string | null;
  commit_sha: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

export interface WorkflowStageRow {
  workflow_id: string;
  position: number;
  stage_id: string;
  name: string;
  task: string;
  stage_role: string;
  policy_name: string;
  policy_version: number;
  policy_digest: string;
  budget_cents: number;
  provider: string;
  model: string;
  permissions: string[];
  dropped_permissions: { permission: string; reason: string; detail: string }[];
  upstream_stage_ids: string[];
  status: string;
  execution_id: string | null;
  blocked_reasons: string[];
  api_key_override: boolean;
  api_key_ciphertext: string | null;
  started_at: Date | null;
  finished_at: Date | null;
}
