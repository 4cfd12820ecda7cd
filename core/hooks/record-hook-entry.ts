import type { ChatMessage } from '../agent/provider.js';
import type { Certificate } from '../certificates/types.js';
import type { ToolCallEntry } from '../executions/execution.js';
import type { AgentSessionCallState } from '../mcp/agent-session.js';
import type { HookDeps } from './hook-ports.js';

/** One entry as signed at a seq after a given certificate. */
export interface SignedEntry {
  entry: ToolCallEntry;
  answer: ChatMessage & { role: 'tool' };
  certificate: Certificate;
}

/**
 * Records a hook call's entry at the session's next seq, its certificate chained to the last
 * (docs/agent-hooks.md, "Records"), whichever replica recorded before: a seq another call took
 * first is read again and the entry signed at the next one (core/mcp/gateway-call-journal.ts).
 * Runs in the session's turn in this process; `read` is the state read while authenticating,
 * used while no call of the session ended since. Answers the recorded entry, or null when the
 * session takes no more entries (ended, or gone).
 */
export async function recordHookEntry(
  deps: HookDeps,
  sessionId: string,
  read: { state: AgentSessionCallState; readAt: number },
  sign: (seq: number, prev: string | null) => SignedEntry,
): Promise<ToolCallEntry | null> {
  return deps.calls.serialise(sessionId, async () => {
    let at = deps.calls.current(sessionId, read.readAt) ? read.state : await deps.agentSessions.callState(sessionId);
    while (at) {
      const { entry, answer, certificate } = sign(at.next_seq, at.last_certificate_digest);
      const outcome = await deps.gatewayCalls.record(sessionId, entry, answer, certificate);
      if (outcome === 'recorded') return entry;
      if (outcome === 'ended') return null;
      at = await deps.agentSessions.callState(sessionId);
    }
    return null;
  });
}
