import type { AgentKey } from './agent-key.js';
import { openAgentSession, type AgentSessionPorts, type OpenedAgentSession } from './open-agent-session.js';

/**
 * An agent key's new MCP session (docs/mcp-gateway.md, "Repository agent keys"): a governed agent
 * session of the key's repository on the key's terms, named after the key and owned by the ADMIN
 * who created it. Refused (RateLimitedError, nothing written) while `maxOpen` of the key's
 * sessions are open (core/mcp/mcp-session-limits.ts).
 */
export function openKeySession(ports: AgentSessionPorts, key: AgentKey, maxOpen: number): Promise<OpenedAgentSession> {
  return openAgentSession(
    ports,
    key.created_by,
    {
      name: key.name,
      repo_root: key.repo_root,
      compliance_policy: key.compliance_policy,
      permissions: key.permissions ?? undefined,
      servers: key.servers,
      max_tool_calls: key.max_tool_calls ?? undefined,
      expires_in_seconds: key.session_seconds,
    },
    { id: key.id, max_open: maxOpen },
  );
}
