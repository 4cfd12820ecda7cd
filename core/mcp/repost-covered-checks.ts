import { coverageShrinksOn } from '../release/session-coverage.js';
import type { AgentSessionStore } from './agent-session.js';

/** A change to an agent session: a call denied in it (under its policy's severity), or its end (closed, expired, cancelled). */
export type SessionChange = Parameters<typeof coverageShrinksOn>[0];

/**
 * "A session's coverage shrank: re-post the checks", in this one place (docs/mcp-gateway.md,
 * "Sessions and the commits they produced"): when `change` shrinks what the session covers
 * (core/release/session-coverage.ts decides which changes do), the check runs of the open pull
 * requests it may have covered are re-posted (one job per session; requests before it runs
 * coalesce). Called by whatever ends or changes a session, once per change: ending it
 * (close-agent-session.ts: closed, expired, a key's MCP session ended), cancelling it
 * (core/executions/cancel-execution.ts) and its first call denied in an MCP session
 * (gateway-session.ts). Answers whether it re-posted.
 */
export async function repostCoveredChecks(
  ports: { agentSessions: Pick<AgentSessionStore, 'coverageChanged'> },
  sessionId: string,
  change: SessionChange,
): Promise<boolean> {
  if (!coverageShrinksOn(change)) return false;
  await ports.agentSessions.coverageChanged(sessionId);
  return true;
}
