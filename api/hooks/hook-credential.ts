import { retryAfterHit, type RateLimiter } from '../../core/accounts/rate-limiter.js';
import type { HookCallStore } from '../../core/hooks/hook-call.js';
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
 * trip; an agent key is counted once found. Null, nothing counted: no credential.
 */
export async function hookCredentialOf(ports: HookCredentialPorts, tokenHash: string, perMinute: number): Promise<McpCredential | null> {
  if (perMinute <= 0) return mcpCredentialOf(ports, tokenHash);
  const bucket = `hooks:${tokenHash}`;
  const counted: { hit?: { count: number; retry: number } } = {};
  const callStateByToken = async (hash: string) => {
    const found = await ports.hookCalls.sessionByTokenCounted(hash, bucket, RATE_WINDOW_SECONDS);
    if (found) counted.hit = found.hit;
    return found?.session ?? null;
  };
  const credential = await mcpCredentialOf({ agentKeys: ports.agentKeys, agentSessions: { callStateByToken } }, tokenHash);
  if (!credential) return null;
  const { hit } = counted;
  requireWithinMcpRate(
    hit ? retryAfterHit(hit.count, hit.retry, perMinute) : await ports.rateLimiter.hit(bucket, perMinute, RATE_WINDOW_SECONDS),
  );
  return credential;
}
