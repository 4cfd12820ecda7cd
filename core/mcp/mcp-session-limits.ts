import { RateLimitedError } from '../errors.js';

/**
 * The MCP endpoint's limits (docs/mcp-gateway.md, "Limits"): a per-token request rate, and a cap
 * on the MCP sessions open at once per agent key and per agent session. The endpoint and the
 * store gather the facts (requests counted this minute, sessions open); these rules decide.
 */

/**
 * The longest a refusal for a full cap asks the agent to wait: a slot frees as soon as one of the
 * open sessions ends (`DELETE`, close, cancel), which no clock predicts; the next expiry only
 * bounds it.
 */
export const MAX_CAP_RETRY_AFTER_SECONDS = 60;

/** What holds the MCP sessions a cap counts. */
export type McpSessionHolder = 'agent key' | 'agent session';

/** The MCP sessions a holder has open now, and when the first of them ends at the latest. */
export interface OpenMcpSessions {
  open: number;
  /** Seconds until the earliest expiry among them; null when none is open. */
  secondsToNextExpiry: number | null;
}

/**
 * A request that ends an MCP session (`DELETE`) is never refused by the rate limit or the caps,
 * and is not counted: an agent can always release what it holds.
 */
export function countsAgainstMcpLimits(method: string): boolean {
  return method.toUpperCase() !== 'DELETE';
}

/**
 * Refuses (429 with Retry-After) one more MCP session for a holder that has `max` open already.
 * An agent key's are counted in PostgreSQL under a lock on the key, so replicas and concurrent
 * `initialize` requests cannot overshoot; an agent session's in the process that holds them.
 */
export function requireMcpSessionRoom(holder: McpSessionHolder, sessions: OpenMcpSessions, max: number): void {
  if (sessions.open < max) return;
  const untilExpiry = sessions.secondsToNextExpiry ?? MAX_CAP_RETRY_AFTER_SECONDS;
  const retryAfter = Math.max(1, Math.min(MAX_CAP_RETRY_AFTER_SECONDS, Math.ceil(untilExpiry)));
  throw new RateLimitedError(
    `This ${holder} has ${sessions.open} MCP sessions open, the most allowed at once (${max}): end one (DELETE with its Mcp-Session-Id) or retry later.`,
    retryAfter,
  );
}

/** Refuses (429 with Retry-After) a request counted past the per-token rate; `retryAfter` is what the counter answered (0: within it). */
export function requireWithinMcpRate(retryAfter: number): void {
  if (retryAfter > 0) throw new RateLimitedError('Too many MCP requests with this token; slow down.', retryAfter);
}
