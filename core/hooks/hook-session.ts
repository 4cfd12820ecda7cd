import type { AgentSessionCallState } from '../mcp/agent-session.js';
import { closeAgentSession } from '../mcp/close-agent-session.js';
import type { McpCredential } from '../mcp/mcp-credential.js';
import { openKeySession } from '../mcp/open-key-session.js';
import type { AgentSessionPorts } from '../mcp/open-agent-session.js';
import type { HookAgent, HookCallStore } from './hook-call.js';

export interface HookSessionPorts extends AgentSessionPorts {
  hookCalls: Pick<HookCallStore, 'stateOfRun' | 'bindRun'>;
  close: Parameters<typeof closeAgentSession>[0];
}

/**
 * The agent session a hook request belongs to (docs/agent-hooks.md, "Sessions and keys"): the
 * session whose token it carries, or, for a repository agent key, the session the agent's run
 * (its own session id) opened with its first call, opened now when this is that call. One run of
 * an agent is one governed execution. Two first calls racing both open a session; the one bound
 * first stands and the other is closed at once, empty. Null: the session no longer exists.
 * `open` is false for a request that must not open one (an event shipgate has no opinion on).
 */
export async function hookSessionOf(
  ports: HookSessionPorts,
  credential: McpCredential,
  agent: HookAgent,
  cliSessionId: string | null,
  maxOpen: number,
  open = true,
): Promise<AgentSessionCallState | null> {
  if (credential.session) return credential.session;
  if (!cliSessionId) return null;
  const key = credential.key;
  const known = await ports.hookCalls.stateOfRun(key.id, agent, cliSessionId);
  if (known) return known;
  if (!open) return null;
  const opened = await openKeySession(ports, key, maxOpen);
  if (!opened) return null;
  const standing = await ports.hookCalls.bindRun(key.id, agent, cliSessionId, opened.id);
  if (standing === opened.id) return opened;
  await closeAgentSession(ports.close, opened.id);
  return ports.sessions.callState(standing);
}
