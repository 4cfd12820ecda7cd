import type { AgentSessionCallState } from './agent-session.js';

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
  open(record: Omit<McpSessionRecord, 'ended_at'>, expiresAt: string, maxOpen: number): Promise<void>;
  /**
   * The MCP session with its agent session's state; null when there is no such MCP session.
   * With `hit`, the request is counted against its token's rate in the same statement (one round
   * trip per request), only when `hit.tokenHash` is the agent session's token: any other token is
   * counted by the caller once it is known.
   */
  state(id: string, hit?: McpRateHit): Promise<McpSessionState | null>;
  /** Ends the MCP session (idempotent); true when this call ended it. */
  end(id: string): Promise<boolean>;
  /** Those of `ids` that no longer serve calls: ended, gone, or their agent session no longer open at `now`. */
  ended(ids: readonly string[], now: Date): Promise<string[]>;
}
