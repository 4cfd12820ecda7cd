import type { ChatMessage } from '../agent/provider.js';
import type { Certificate } from '../certificates/types.js';
import type { ToolCallEntry } from '../executions/execution.js';
import type { AgentSessionCallState } from '../mcp/agent-session.js';
import type { ChainPosition } from '../mcp/session-call-queue.js';
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
 * Runs in the session's turn in this process. It starts from `read`, the state read while
 * authenticating, while no call of the session ended here since; else from where this process's
 * last entry of the session left the record (a post that was not authenticated again, or a call
 * after another: no read); else it reads. Answers the recorded entry, or null when the session
 * takes no more entries (ended, or gone).
 */
export async function recordHookEntry(
  deps: HookDeps,
  sessionId: string,
  read: { state: AgentSessionCallState; readAt: number } | null,
  sign: (seq: number, prev: string | null) => SignedEntry,
): Promise<ToolCallEntry | null> {
  return deps.calls.serialise(sessionId, async () => {
    let at: ChainPosition | null =
      read && deps.calls.current(sessionId, read.readAt)
        ? read.state
        : (deps.calls.position(sessionId) ?? (await deps.agentSessions.callState(sessionId)));
    while (at) {
      const { entry, answer, certificate } = sign(at.next_seq, at.last_certificate_digest);
      const outcome = await deps.gatewayCalls.record(sessionId, entry, answer, certificate);
      if (outcome === 'recorded') {
        deps.calls.recordedAt(sessionId, { next_seq: entry.seq + 1, last_certificate_digest: certificate.digest });
        return entry;
      }
      if (outcome === 'ended') return null;
      at = await deps.agentSessions.callState(sessionId);
    }
    return null;
  });
}
