// The MCP gateway: registered upstream MCP servers and governed agent sessions.
import type { WorkflowRun } from '../../core/release/evidence.js';

export interface McpServerRow {
  name: string;
  url: string;
  /** The headers as JSON, sealed with SHIPGATE_SECRET_KEY (context `mcp_server:<name>`); null when none. */
  headers_ciphertext: string | null;
  header_names: string[];
  tools: Record<string, string[]> | null;
  created_by: string | null;
  created_at: Date;
}

export interface AgentSessionRow {
  /** The session is this execution (kind `agent_session`). */
  execution_id: string;
  token_hash: string;
  servers: string[];
  max_tool_calls: number;
  branch: string | null;
  expires_at: Date;
  agent_key_id: string | null;
  /** The GitHub Actions workflow run whose OIDC token opened the session (migration 028). */
  workflow_run: WorkflowRun | null;
}

export interface AgentKeyRow {
  id: string;
  name: string;
  repo_root: string;
  key_hash: string;
  compliance_policy: string;
  permissions: string[] | null;
  servers: string[];
  max_tool_calls: number | null;
  session_seconds: number;
  created_by: string;
  created_at: Date;
  revoked_at: Date | null;
}
