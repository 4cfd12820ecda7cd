import { retryAfterHit, type RateLimiter } from '../../core/accounts/rate-limiter.js';
import type { HookCallStore, NewHookCall } from '../../core/hooks/hook-call.js';
import type { AgentKeyStore } from '../../core/mcp/agent-key.js';
import type { AgentSessionStore } from '../../core/mcp/agent-session.js';
import { mcpCredentialOf, type McpCredential } from '../../core/mcp/mcp-credential.js';
import { requireWithinMcpRate } from '../../core/mcp/mcp-session-limits.js';

/** The window of the per-token rate, the MCP endpoint's (docs/mcp-gateway.md, "Limits"). */
const RATE_WINDOW_SECONDS = 60;

export interface HookCredentialPorts {
  hookCalls: Pick<HookCallStore, 'sessionByTokenCounted'>;
  agentSessions: Pick<AgentSessionStore, 'callStateByToken'>;
  agentKeys: Pick<AgentKeyStore, 'activeByHash'>;
  rateLimiter: RateLimiter;
}

/**
 * The credential a hook request's token names (core/mcp/mcp-credential.ts), the request counted
 * against the per-token rate (none when `perMinute` is 0; 429 past it). A session token, which
 * every call of a governed session carries, is read with its call state and counted in one round
 * trip, which also opens `ahead` (a pre's call the policy alone allows: core/hooks/open-ahead.ts)
 * when the session's state and the count allow it (`openedAhead`, its row's id); an agent key is
 * counted once found. Null, nothing counted: no credential.
 */
export async function hookCredentialOf(
  ports: HookCredentialPorts,
  tokenHash: string,
  perMinute: number,
  ahead: NewHookCall | null = null,
): Promise<(McpCredential & { openedAhead: string | null }) | null> {
  if (perMinute <= 0) {
    const credential = await mcpCredentialOf(ports, tokenHash);
    return credential && { ...credential, openedAhead: null };
  }
  const bucket = `hooks:${tokenHash}`;
  const counted: { hit?: { count: number; retry: number }; openedAhead: string | null } = { openedAhead: null };
  const callStateByToken = async (hash: string) => {
    const found = await ports.hookCalls.sessionByTokenCounted(hash, bucket, RATE_WINDOW_SECONDS, ahead && { call: ahead, perMinute });
    if (found) Object.assign(counted, { hit: found.hit, openedAhead: found.openedAhead });
    return found?.session ?? null;
  };
  const credential = await mcpCredentialOf({ agentKeys: ports.agentKeys, agentSessions: { callStateByToken } }, tokenHash);
  if (!credential) return null;
  const { hit } = counted;
  requireWithinMcpRate(
    hit ? retryAfterHit(hit.count, hit.retry, perMinute) : await ports.rateLimiter.hit(bucket, perMinute, RATE_WINDOW_SECONDS),
  );
  return { ...credential, openedAhead: counted.openedAhead };
}
