import type { WorkflowRun } from '../core/release/evidence.js';

/** Row types: the one place that says what each table holds. */
export interface UserRow {
  id: string;
  email: string;
  name: string;
  role: string;
  password_hash: string;
  active: boolean;
  created_at: Date;
}

export interface ApiKeyRow {
  id: string;
  user_id: string;
  key_hash: string;
  label: string;
  created_at: Date;
  revoked_at: Date | null;
}

export interface LoginFailureRow {
  id: number;
  email: string;
  failed_at: Date;
}

export interface RateLimitRow {
  bucket: string;
  window_start: Date;
  count: number;
}

export interface WorkerHeartbeatRow {
  worker_id: string;
  seen_at: Date;
}

export interface PolicyRow {
  name: string;
  version: number;
  /** The Policy as JSON, version included. */
  body: unknown;
  digest: string;
  created_by: string | null;
  created_at: Date;
}

export interface SigningKeyRow {
  keyid: string;
  /** `{kty, crv, x}` of the Ed25519 public key. */
  public_jwk: { kty: 'OKP'; crv: 'Ed25519'; x: string };
  created_at: Date;
  retired_at: Date | null;
}

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

export interface GateVersionRow {
  repo_root: string;
  version: number;
  digest: string;
  /** The Gate as JSON, every field present. */
  gate: Record<string, unknown>;
  source: string;
  created_by: string | null;
  created_at: Date;
}

export interface EvidenceRow {
  id: string;
  repo_root: string;
  commit_sha: string;
  /** `check_run` (from GitHub) or `upload` (POST /releases/evidence). */
  source: string;
  kind: string;
  name: string;
  /** Uploads: passed | failed. Check runs: GitHub's status. */
  status: string;
  conclusion: string | null;
  digest: string | null;
  uri: string | null;
  details_url: string | null;
  external_id: string | null;
  ref: string | null;
  produced_at: Date;
  recorded_by: string | null;
  /** Uploads by a workflow through its OIDC token: the run that recorded it. */
  workflow_run: WorkflowRun | null;
  created_at: Date;
}

export interface RefRow {
  repo_root: string;
  ref: string;
  commit_sha: string;
  observed_at: Date;
}

export interface SnapshotRow {
  id: string;
  repo_root: string;
  commit_sha: string;
  evidence_digest: string;
  decision: string;
  blockers: unknown[];
  provenance: Record<string, unknown>;
  status: string;
  release_label: string | null;
  created_at: Date;
  seen_at: Date;
  attested_at: Date | null;
}

export interface PromotionRow {
  id: string;
  snapshot_id: string;
  repo_root: string;
  commit_sha: string;
  from_status: string;
  status: string;
  release_label: string | null;
  metadata: Record<string, unknown>;
  promoted_by: string;
  attestation: { payloadType: string; payload: string; signatures: { keyid: string; sig: string }[] };
  created_at: Date;
}

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

export interface Tables {
  users: UserRow;
  api_keys: ApiKeyRow;
  login_failures: LoginFailureRow;
  rate_limits: RateLimitRow;
  worker_heartbeats: WorkerHeartbeatRow;
  executions: ExecutionRow;
  execution_messages: ExecutionMessageRow;
  tool_calls: ToolCallRow;
  certificates: CertificateRow;
  artifacts: ArtifactRow;
  policies: PolicyRow;
  signing_keys: SigningKeyRow;
  gate_versions: GateVersionRow;
  evidence: EvidenceRow;
  refs: RefRow;
  snapshots: SnapshotRow;
  promotions: PromotionRow;
  github_deliveries: GitHubDeliveryRow;
  github_pull_requests: GitHubPullRequestRow;
  github_merge_groups: GitHubMergeGroupRow;
  workflows: WorkflowRow;
  workflow_stages: WorkflowStageRow;
  deployment_requests: DeploymentRequestRow;
}

export interface GitHubDeliveryRow {
  delivery_id: string;
  event: string;
  action: string | null;
  repo_root: string | null;
  installation_id: string | null;
  outcome: 'queued' | 'ignored';
  reason: string | null;
  received_at: Date;
}

export interface GitHubPullRequestRow {
  repo_root: string;
  number: number;
  head_sha: string;
  head_ref: string;
  base_ref: string;
  state: 'open' | 'closed';
  /** bigint: pg returns it as a string. */
  installation_id: string | null;
  updated_at: Date;
}

export interface GitHubMergeGroupRow {
  repo_root: string;
  head_sha: string;
  head_ref: string;
  base_ref: string;
  installation_id: string | null;
  created_at: Date;
}

export interface DeploymentRequestRow {
  id: string;
  repo_root: string;
  environment: string;
  commit_sha: string;
  ref: string | null;
  /** bigint columns: pg returns them as strings. */
  run_id: string;
  deployment_id: string;
  installation_id: string;
  state: 'waiting' | 'approved' | 'rejected';
  decision: 'SHIP' | 'NO_SHIP' | null;
  snapshot_id: string | null;
  timed_out: boolean;
  comment: string | null;
  requested_at: Date;
  answered_at: Date | null;
}
