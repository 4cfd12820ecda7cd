// Governed executions and what a run records: transcript, tool calls, certificates, artifacts.

export interface ExecutionRow {
  id: string;
  owner_id: string;
  workflow_id: string | null;
  stage_id: string | null;
  task: string;
  status: string;
  verdict: string | null;
  policy_name: string;
  policy_version: number;
  policy_digest: string;
  stage_role: string;
  permissions: string[];
  dropped_permissions: { permission: string; reason: string; detail: string }[];
  budget_cents: number;
  cost_cents: number;
  provider: string;
  model: string;
  api_key_override: boolean;
  api_key_ciphertext: string | null;
  upstream_execution_ids: string[];
  repo_root: string | null;
  commit_sha: string | null;
  output: string | null;
  error: { code: string; message: string } | null;
  violations: string[];
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

export interface ExecutionMessageRow {
  execution_id: string;
  idx: number;
  message: Record<string, unknown>;
}

export interface ToolCallRow {
  execution_id: string;
  seq: number;
  call_id: string;
  tool: string;
  arguments: unknown;
  capability: string | null;
  verdict: string;
  reason: string | null;
  certificate_id: string | null;
  result_digest: string | null;
  output: string | null;
  duration_ms: number;
  created_at: Date;
}

export interface CertificateRow {
  id: string;
  ordinal: number;
  execution_id: string | null;
  kind: string;
  theorem: string;
  plan_hash: string;
  verified_properties: string[];
  prover: string;
  issued_at: Date;
  digest: string;
  envelope: { payloadType: string; payload: string; signatures: { keyid: string; sig: string }[] };
}

export interface ArtifactRow {
  id: string;
  execution_id: string;
  seq: number | null;
  kind: string;
  name: string;
  content: string;
  digest: string;
  approved_for_release: boolean | null;
  created_at: Date;
}
