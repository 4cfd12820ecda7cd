import type { AgentKey, AgentKeyStore } from './agent-key.js';
import type { AgentSessionCallState, AgentSessionStore } from './agent-session.js';

/** What a bearer token presented at the MCP endpoint is: an agent session's token, or an active agent key (whose `initialize` opens a session). */
export type McpCredential = { session: AgentSessionCallState; key: null } | { session: null; key: AgentKey };

/**
 * The credential a token names, by its hash (docs/mcp-gateway.md, "The MCP endpoint"): the agent
 * session whose token it is, read with its call state in one statement (which the request's
 * `tools/call` may use: core/mcp/session-call-queue.ts), else the active agent key it is; null
 * when it is neither. A key whose creator is deactivated is no credential (docs/mcp-gateway.md,
 * "Repository agent keys"): deactivation revokes the creator's keys, and this refuses one even
 * before that revocation is written, or when a key was made while its creator was being deactivated.
 */
export async function mcpCredentialOf(
  ports: { agentSessions: Pick<AgentSessionStore, 'callStateByToken'>; agentKeys: Pick<AgentKeyStore, 'activeByHash'> },
  tokenHash: string,
): Promise<McpCredential | null> {
  const session = await ports.agentSessions.callStateByToken(tokenHash);
  if (session) return { session, key: null };
  const found = await ports.agentKeys.activeByHash(tokenHash);
  return found?.creator_active ? { session: null, key: found.key } : null;
}
