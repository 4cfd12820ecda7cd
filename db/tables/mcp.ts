// The MCP gateway: registered upstream MCP servers and governed agent sessions.
import type { UpstreamAuth } from '../../core/mcp/mcp-server-registry.js';
import type { AgentKey } from '../../core/mcp/agent-key.js';
import type { WorkflowRun } from '../../core/release/evidence.js';

export interface McpServerRow {
  name: string;
  url: string;
  /** The headers as JSON, sealed with SHIPGATE_SECRET_KEY (context `mcp_server:<name>`); null when none. */
  headers_ciphertext: string | null;
  header_names: string[];
  tools: Record<string, string[]> | null;
  /** Migration 049: how shipgate authenticates beyond the headers (`github_app` permissions); null when not at all. */
  auth: UpstreamAuth | null;
  created_by: string | null;
  created_at: Date;
  /** When its tools were first listed and pinned (migration 048); null until then. */
  tools_pinned_at: Date | null;
}

/** One upstream tool's pinned and last listed definitions (migration 048). */
export interface McpToolPinRow {
  server_name: string;
  tool: string;
  pinned_definition: Record<string, unknown> | null;
  pinned_digest: string | null;
  current_definition: Record<string, unknown>;
  current_digest: string;
  rejected_digest: string | null;
  changed_at: Date;
  decided_by: string | null;
  decided_at: Date | null;
}

export interface AgentSessionRow {
  /** The session is this execution (kind `agent_session`). */
  execution_id: string;
  token_hash: string;
  servers: string[];
  max_tool_calls: number;
  /** The calls it has taken from `max_tool_calls` (migration 061). */
  calls_taken: number;
  branch: string | null;
  expires_at: Date;
  agent_key_id: string | null;
  /** The GitHub Actions workflow run whose OIDC token opened the session (migration 028). */
  workflow_run: WorkflowRun | null;
}

/** One MCP session of an agent session (migration 051): what its `initialize` said, and when it ended. */
export interface McpSessionRow {
  id: string;
  execution_id: string;
  agent_key_id: string | null;
  protocol_version: string;
  client_info: Record<string, unknown>;
  client_capabilities: Record<string, unknown>;
  created_at: Date;
  ended_at: Date | null;
  /** Migration 052: when a request last used it (written at most once a minute). */
  last_used_at: Date;
}

/** A repository agent key as stored: the core record with its hash, dates as pg returns them. */
export interface AgentKeyRow extends Omit<AgentKey, 'created_at' | 'revoked_at'> {
  key_hash: string;
  created_at: Date;
  /** With `revoked_reason` (migration 041): both null while the key is live, both set once revoked. */
  revoked_at: Date | null;
}

/** A gateway call held under a policy's `ask` (migration 050), dates as pg returns them. */
export interface AgentCallApprovalRow {
  id: string;
  execution_id: string;
  seq: number;
  tool: string;
  arguments: Record<string, unknown>;
  arguments_digest: string;
  capability: string;
  requested_at: Date;
  deadline: Date;
  decision: 'approved' | 'denied' | 'timed_out' | 'session_ended' | null;
  decided_by: string | null;
  decided_at: Date | null;
  reason: string | null;
}
