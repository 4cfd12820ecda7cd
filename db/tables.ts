import type {
  UserRow,
  ApiKeyRow,
  GitHubIdentityRow,
  GitHubSignInStateRow,
  GitHubSignInCodeRow,
  LoginFailureRow,
  RateLimitRow,
} from './tables/accounts.js';
import type { WorkerHeartbeatRow, SigningKeyRow } from './tables/operations.js';
import type { PolicyRow } from './tables/policies.js';
import type {
  ExecutionRow,
  ExecutionMessageRow,
  ToolCallRow,
  CertificateRow,
  ToolCallCertificateRow,
  ArtifactRow,
} from './tables/executions.js';
import type {
  GateVersionRow,
  EvidenceRow,
  EvidenceDocumentRow,
  RefRow,
  SnapshotRow,
  PromotionRow,
  ReleaseCommitVersionRow,
  ReleaseRepoVersionRow,
  ReleaseOverrideRow,
} from './tables/release.js';
import type { WorkflowRow, WorkflowStageRow } from './tables/workflows.js';
import type {
  GitHubDeliveryRow,
  GitHubPullRequestRow,
  GitHubMergeGroupRow,
  GitHubRepositoryRow,
  DeploymentRequestRow,
  PullRequestAuthorshipRow,
  CommitArrivalRow,
  GitHubAppRegistrationRow,
  GitHubAppManifestStateRow,
} from './tables/github.js';
import type { AgentCallApprovalRow, AgentKeyRow, AgentSessionRow, McpServerRow, McpSessionRow, McpToolPinRow } from './tables/mcp.js';

export type * from './tables/accounts.js';
export type * from './tables/operations.js';
export type * from './tables/policies.js';
export type * from './tables/executions.js';
export type * from './tables/release.js';
export type * from './tables/workflows.js';
export type * from './tables/github.js';
export type * from './tables/mcp.js';

/** Row types by table: each area's rows are in db/tables/<area>.ts, this is the one index of them. */
export interface Tables {
  users: UserRow;
  api_keys: ApiKeyRow;
  github_identities: GitHubIdentityRow;
  github_sign_in_states: GitHubSignInStateRow;
  github_sign_in_codes: GitHubSignInCodeRow;
  login_failures: LoginFailureRow;
  rate_limits: RateLimitRow;
  worker_heartbeats: WorkerHeartbeatRow;
  executions: ExecutionRow;
  execution_messages: ExecutionMessageRow;
  tool_calls: ToolCallRow;
  certificates: CertificateRow;
  tool_call_certificates: ToolCallCertificateRow;
  artifacts: ArtifactRow;
  policies: PolicyRow;
  signing_keys: SigningKeyRow;
  gate_versions: GateVersionRow;
  evidence: EvidenceRow;
  evidence_documents: EvidenceDocumentRow;
  refs: RefRow;
  snapshots: SnapshotRow;
  promotions: PromotionRow;
  release_commit_versions: ReleaseCommitVersionRow;
  release_repo_versions: ReleaseRepoVersionRow;
  release_overrides: ReleaseOverrideRow;
  github_deliveries: GitHubDeliveryRow;
  github_pull_requests: GitHubPullRequestRow;
  github_merge_groups: GitHubMergeGroupRow;
  github_repositories: GitHubRepositoryRow;
  workflows: WorkflowRow;
  workflow_stages: WorkflowStageRow;
  deployment_requests: DeploymentRequestRow;
  pull_request_authorship: PullRequestAuthorshipRow;
  commit_arrivals: CommitArrivalRow;
  github_app_registrations: GitHubAppRegistrationRow;
  github_app_manifest_states: GitHubAppManifestStateRow;
  mcp_servers: McpServerRow;
  mcp_sessions: McpSessionRow;
  mcp_tool_pins: McpToolPinRow;
  agent_call_approvals: AgentCallApprovalRow;
  agent_sessions: AgentSessionRow;
  agent_keys: AgentKeyRow;
}
