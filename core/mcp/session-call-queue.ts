import { setBounded } from '../set-bounded.js';
import type { AgentSessionCallState } from './agent-session.js';

/** A session's call state as the endpoint read it while authenticating a request, with the stamp taken before. */
export interface ReadState {
  state: AgentSessionCallState;
  readAt: number;
}

/** Where a session's record stands: the seq its next entry takes and the certificate that entry chains to. */
export type ChainPosition = Pick<AgentSessionCallState, 'next_seq' | 'last_certificate_digest'>;

/** Positions kept (one per session recorded in this process), forgotten all at once past this. */
const POSITIONS_KEPT = 10_000;

/**
 * The calls of each agent session in this process, one at a time, and whether a call state read
 * while authenticating is still current when the call's turn comes: it is unless a call of the
 * same session ended here after the read began (its stamp). A stale state is read again; a
 * current one saves the call a round trip (docs/benchmarks.md, the MCP gateway). A call of the
 * session on another replica is not seen here: the record takes the session's next free seq
 * whatever was read (docs/mcp-gateway.md, "Any replica serves any session").
 */
export function createSessionCallQueue() {
  const queues = new Map<string, Promise<unknown>>();
  /** Counts every call ended in this process; a session's entry is the count when its last call ended. */
  let ended = 0;
  const endedAt = new Map<string, number>();
  const positions = new Map<string, ChainPosition>();
  return {
    /** Taken before reading a session's state. */
    stamp: (): number => ended,
    /** Whether a state read from `stamp` on is still the session's (no call of it ended since). */
    current: (sessionId: string, stamp: number): boolean => (endedAt.get(sessionId) ?? -1) <= stamp,
    /** Runs `task` after every task queued before for the session; its end makes earlier reads stale. */
    serialise<T>(sessionId: string, task: () => Promise<T>): Promise<T> {
      const guarded = () =>
        task().finally(() => {
          ended += 1;
          endedAt.set(sessionId, ended);
        });
      const run = (queues.get(sessionId) ?? Promise.resolve()).then(guarded, guarded);
      const settled = run.catch(() => undefined);
      queues.set(sessionId, settled);
      void settled.then(() => queues.get(sessionId) === settled && queues.delete(sessionId));
      return run;
    },
    /**
     * The position after the entry this process recorded last for the session (`recordedAt`), if
     * any: never ahead of the database's, since only a committed entry sets it; behind it when
     * another replica recorded since, which the record's free-seq check finds (then read again).
     */
    position: (sessionId: string): ChainPosition | undefined => positions.get(sessionId),
    recordedAt(sessionId: string, position: ChainPosition): void {
      setBounded(positions, sessionId, position, POSITIONS_KEPT);
    },
    /** The session has no MCP session left here: nothing of it is kept. */
    forget(sessionId: string): void {
      if (!queues.has(sessionId)) endedAt.delete(sessionId);
      positions.delete(sessionId);
    },
  };
}

export type SessionCallQueue = ReturnType<typeof createSessionCallQueue>;
