import { sessionIsOpen, sessionOwnerDeactivated, type AgentSessionCallState } from './agent-session.js';
import { closeAgentSession } from './close-agent-session.js';
import { countsAgainstMcpLimits } from './mcp-session-limits.js';

/**
 * Whether a request to the MCP endpoint may go on in its agent session (docs/mcp-gateway.md,
 * "Governed agent sessions": expiry): a request that ends an MCP session (`DELETE`) always may,
 * so an agent can always release what it holds; any other only while the session is open. A
 * session found past its expiry while still `running` is ended now, as the expiry job would end
 * it within a minute (close-agent-session.ts); one whose owner was deactivated is ended now as
 * closed by deactivation, should the deactivation not have closed it yet.
 */
export async function admitSessionRequest(
  deps: Parameters<typeof closeAgentSession>[0],
  session: AgentSessionCallState,
  method: string,
  now: Date,
): Promise<boolean> {
  if (!countsAgainstMcpLimits(method) || sessionIsOpen(session, now)) return true;
  if (session.status === 'running')
    await closeAgentSession(deps, session.id, sessionOwnerDeactivated(session) ? 'owner_deactivated' : 'closed');
  return false;
}
