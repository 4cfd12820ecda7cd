import type { AgentKey } from './agent-key.js';
import type { AgentSessionCallState } from './agent-session.js';
import { openAgentSession, type AgentSessionPorts } from './open-agent-session.js';

/**
 * An agent key's new MCP session (docs/mcp-gateway.md, "Repository agent keys"): a governed agent
 * session of the key's repository on the key's terms, under the policy version the key pins (a
 * newer version reaches it only when an ADMIN re-points the key), named after the key and owned by the ADMIN
 * who created it, answered with its call state (null: it no longer exists). Refused
 * (RateLimitedError, nothing written) while `maxOpen` of the key's sessions are open
 * (core/mcp/mcp-session-limits.ts).
 */
export async function openKeySession(ports: AgentSessionPorts, key: AgentKey, maxOpen: number): Promise<AgentSessionCallState | null> {
  const opened = await openAgentSession(
    ports,
    key.created_by,
    {
      name: key.name,
      repo_root: key.repo_root,
      compliance_policy: key.compliance_policy,
      policy_version: key.policy_version,
      permissions: key.permissions ?? undefined,
      servers: key.servers,
      max_tool_calls: key.max_tool_calls ?? undefined,
      expires_in_seconds: key.session_seconds,
    },
    { id: key.id, max_open: maxOpen },
  );
  return ports.sessions.callState(opened.execution.id);
}
