import type { AgentKeyStore } from './agent-key.js';
import type { AgentSessionStore } from './agent-session.js';
import { closeAgentSession } from './close-agent-session.js';

/**
 * What a user's deactivation ends besides their API keys (docs/mcp-gateway.md, "Governed agent
 * sessions" and "Repository agent keys"; docs/operations.md, "Security"): every agent key they
 * created is revoked (reason `creator_deactivated`; reactivating them does not bring it back), and
 * every agent session they own that is still running is closed, recorded as closed by
 * deactivation, as closing does (verdict, certificate, covered checks re-posted when it ends
 * non-compliant). Called after the account is marked inactive, so the MCP endpoint already refuses
 * both (core/mcp/mcp-credential.ts, agent-session.ts `sessionIsOpen`) while this runs; it is
 * idempotent, so repeating a deactivation finishes one that failed midway. Answers what it ended.
 */
export async function endAgentsOfDeactivatedUser(
  deps: Parameters<typeof closeAgentSession>[0] & {
    agentKeys: Pick<AgentKeyStore, 'revokeCreatedBy'>;
    agentSessions: Pick<AgentSessionStore, 'runningOwnedBy'>;
  },
  userId: string,
): Promise<{ agent_keys_revoked: number; agent_sessions_closed: number }> {
  const revoked = await deps.agentKeys.revokeCreatedBy(userId, 'creator_deactivated');
  const running = await deps.agentSessions.runningOwnedBy(userId);
  for (const id of running) await closeAgentSession(deps, id, 'owner_deactivated');
  return { agent_keys_revoked: revoked, agent_sessions_closed: running.length };
}
