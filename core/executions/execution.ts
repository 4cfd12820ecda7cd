import type { Certificate } from '../certificates/types.js';
import type { ProviderName } from '../agent/provider.js';
import type { DroppedPermission, PolicyRef, StageRole } from '../policies/policy.js';

export const EXECUTION_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];
export const FINISHED_STATUSES: readonly ExecutionStatus[] = ['completed', 'failed', 'cancelled'];
export type Verdict = 'compliant' | 'non_compliant';
/** `task`: shipgate runs the agent; `agent_session`: an agent of the team's own calls tools through the MCP gateway (docs/mcp-gateway.md). */
export const EXECUTION_KINDS = ['task', 'agent_session'] as const;
export type ExecutionKind = (typeof EXECUTION_KINDS)[number];

/** Codes an execution can fail with (docs/workflows.md, "Governed agent executions"). */
export type ExecutionErrorCode =
  | 'budget_exceeded'
  | 'tool_call_limit'
  | 'provider_error'
  | 'provider_not_configured'
  | 'model_price_unknown'
  | 'usage_missing'
  | 'internal_error'
  /** An agent session closed because its owner was deactivated (it finished `completed`, with its verdict). */
  | 'owner_deactivated';

export type DenialReason =
  | 'unknown_tool'
  | 'invalid_arguments'
  | 'capability_not_granted'
  | 'forbidden_by_policy'
  | 'budget_exhausted'
  | 'tool_call_limit'
  /** An MCP upstream registered with `auth.github_app` got no token (docs/mcp-gateway.md, "Least-privilege upstream credentials"). */
  | 'upstream_credentials_unavailable'
  /** An MCP gateway tool whose definition differs from the pinned one, or is new: it awaits an ADMIN's approval (docs/mcp-gateway.md, "Pinned tool definitions"). */
  | 'awaiting_approval'
  /** An MCP gateway tool whose current definition an ADMIN rejected. */
  | 'tool_rejected'
  /** A call held under the policy's `ask`: a person denied it, no one decided it in time, or its session ended meanwhile (docs/mcp-gateway.md, "Asking a person"). */
  | 'denied_by_approver'
  | 'approval_timed_out'
  | `argument_rule:${string}`
  /** A coding agent's tool call refused by the policy's `tool_rules` entry at that position (docs/agent-hooks.md). */
  | `tool_rule:${number}`;

/** One tool call the agent attempted, with its verify verdict (docs/workflows.md, "Governed agent executions"). */
export interface ToolCallEntry {
  seq: number;
  /** The provider's id for the call (answers are matched by it). */
  call_id: string;
  tool: string;
  /** Parsed arguments, or the raw text when it did not parse. */
  arguments: unknown;
  capability: string | null;
  verdict: 'allowed' | 'denied';
  reason: DenialReason | null;
  certificate_id: string | null;
  /** SHA-256 (hex) of the tool's full output; null for denied calls. */
  result_digest: string | null;
  /** The output, truncated to 4 KiB. */
  output: string | null;
  duration_ms: number;
  created_at: string;
  /** The sub-agent that made a coding agent's call through its hooks (docs/agent-hooks.md); absent for the main agent and any other call. */
  agent_id?: string;
  /** The person who approved a held call, as its certificate names them (docs/mcp-gateway.md, "Asking a person"); absent otherwise. */
  approved_by?: { id: string; name: string | null };
  /** The person who denied a held call, and the words they gave, as its certificate names them; absent otherwise. */
  denied_by?: { id: string; name: string | null; reason: string | null };
}

/** An artifact a tool produced (report, review, release notes). */
export interface Artifact {
  kind: 'report' | 'review' | 'release_notes';
  name: string;
  content: string;
  digest: string;
  /** For reviews: the reviewer's verdict. */
  approved_for_release?: boolean;
}

/** The execution record (docs/workflows.md, "Governed agent executions") as the API returns it. Never holds a provider key. */
export interface Execution {
  id: string;
  kind: ExecutionKind;
  owner_id: string;
  workflow_id: string | null;
  stage_id: string | null;
  task: string;
  status: ExecutionStatus;
  verdict: Verdict | null;
  policy: PolicyRef;
  stage_role: StageRole;
  permissions: string[];
  dropped_permissions: DroppedPermission[];
  budget_cents: number;
  cost_cents: number;
  /** Null for agent sessions: the agent's model is its own. */
  provider: ProviderName | null;
  model: string | null;
  api_key_override: boolean;
  upstream_execution_ids: string[];
  repo_root: string | null;
  commit_sha: string | null;
  tool_calls: ToolCallEntry[];
  certificates: Certificate[];
  artifacts: Artifact[];
  output: string | null;
  error: { code: ExecutionErrorCode | string; message: string } | null;
  /** Why the verdict is non_compliant (blocking denials, output rule hits, budget overrun). */
  violations?: string[];
  /**
   * A coding agent's calls its pre hook allowed whose post never came (the agent crashed, or the
   * tool still runs), oldest first (docs/agent-hooks.md, "Records"); present only when there are some.
   */
  incomplete_tool_calls?: IncompleteToolCall[];
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** An allowed hook call without its post: not an entry (nothing certifies what it did), shown as such. */
export interface IncompleteToolCall {
  call_id: string;
  tool: string;
  arguments: Record<string, unknown>;
  capability: string;
  agent_id: string | null;
  requested_at: string;
  completed: false;
}
