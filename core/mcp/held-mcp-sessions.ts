import type { AgentSession } from './agent-session.js';
import { requireMcpSessionRoom } from './mcp-session-limits.js';

/**
 * The MCP sessions this process holds per agent session, for the agent session's cap
 * (mcp-session-limits.ts): a slot is taken when an MCP session is created (before its
 * `initialize` completes) and released when it closes, so concurrent initializes cannot
 * overshoot. An agent key's sessions are capped in PostgreSQL besides (one MCP session each).
 */
export function createHeldMcpSessions(max: number) {
  const held = new Map<string, number>();
  return {
    /** Takes a slot for one more MCP session of `session`; RateLimitedError (429) while it holds `max` already. */
    take(session: Pick<AgentSession, 'id' | 'expires_at'>, now: Date): void {
      const open = held.get(session.id) ?? 0;
      requireMcpSessionRoom('agent session', { open, secondsToNextExpiry: (Date.parse(session.expires_at) - now.getTime()) / 1000 }, max);
      held.set(session.id, open + 1);
    },
    /** An MCP session of the agent session closed: its slot is free. */
    release(agentSessionId: string): void {
      const count = (held.get(agentSessionId) ?? 1) - 1;
      if (count > 0) held.set(agentSessionId, count);
      else held.delete(agentSessionId);
    },
  };
}

export type HeldMcpSessions = ReturnType<typeof createHeldMcpSessions>;
