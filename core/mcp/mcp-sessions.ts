import type { AgentSessionCallState } from './agent-session.js';

/**
 * An MCP session unused this long has ended (its client went away without a `DELETE`): longer
 * than the longest a held call keeps its request open (ask_timeout_seconds, at most an hour).
 */
export const MCP_SESSION_IDLE_MS = 2 * 60 * 60_000;

/** How stale an MCP session's last use may be before a request writes it again. */
export const MCP_SESSION_USE_WRITE_MS = 60_000;

/** One MCP session (`Mcp-Session-Id`) of an agent session, as its `initialize` made it. */
export interface McpSessionRecord {
  id: string;
  /** The agent session (execution) it belongs to. */
  agent_session_id: string;
  /** The agent key whose `initialize` opened it (and its agent session); null for a session token's. */
  agent_key_id: string | null;
  /** The protocol version negotiated at `initialize`. */
  protocol_version: string;
  client_info: Record<string, unknown>;
  client_capabilities: Record<string, unknown>;
  /** When it ended (`DELETE`); null while open. */
  ended_at: string | null;
  /** When a request last used it (at most MCP_SESSION_USE_WRITE_MS stale). */
  last_used_at: string;
}

/** Whether an MCP session still serves requests at `now`: not ended, and used within MCP_SESSION_IDLE_MS. */
export function mcpSessionOpen(mcp: Pick<McpSessionRecord, 'ended_at' | 'last_used_at'>, now: Date): boolean {
  return mcp.ended_at === null && now.getTime() - Date.parse(mcp.last_used_at) < MCP_SESSION_IDLE_MS;
}

/** An MCP session with its agent session's call state and the SHA-256 of that session's token, read in one statement. */
export interface McpSessionState {
  mcp: McpSessionRecord;
  session: AgentSessionCallState;
  sessionTokenHash: string;
  /** The request's hit on its token's rate, when it was counted with the read (core/accounts/rate-limiter.ts, `retryAfterHit`). */
  hit?: { count: number; retry: number };
}

/** A request to count against its token's rate in the same statement as the read, if the token is the agent session's own. */
export interface McpRateHit {
  tokenHash: string;
  bucket: string;
  windowSeconds: number;
}

/**
 * Storage port of MCP sessions (docs/mcp-gateway.md, "Any replica serves any session"):
 * shared by every replica, so a request for a session is served wherever it lands. Implemented
 * in db/.
 */
export interface McpSessionStore {
  /**
   * Stores a new MCP session of its agent session, after counting that session's open MCP
   * sessions under a lock on it (core/mcp/mcp-session-limits.ts, `requireMcpSessionRoom`):
   * beyond `maxOpen` it throws RateLimitedError and writes nothing, on any number of replicas.
   */
  open(record: Omit<McpSessionRecord, 'ended_at' | 'last_used_at'>, expiresAt: string, maxOpen: number): Promise<void>;
  /** Notes a request's use of the MCP session (the caller writes it only when the last is MCP_SESSION_USE_WRITE_MS old). */
  used(id: string): Promise<void>;
  /**
   * The MCP session with its agent session's state; null when there is no such MCP session.
   * With `hit`, the request is counted against its token's rate in the same statement (one round
   * trip per request), only when `hit.tokenHash` is the agent session's token: any other token is
   * counted by the caller once it is known.
   */
  state(id: string, hit?: McpRateHit): Promise<McpSessionState | null>;
  /** Ends the MCP session (idempotent); true when this call ended it. */
  end(id: string): Promise<boolean>;
  /** Those of `ids` that no longer serve calls: ended, idle, gone, or their agent session no longer open at `now`. */
  ended(ids: readonly string[], now: Date): Promise<string[]>;
}
