import type { IncomingMessage } from 'node:http';
import type Koa from 'koa';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { hashApiKey } from '../../core/accounts/api-key.js';
import type { AgentKey } from '../../core/mcp/agent-key.js';
import type { AgentSessionCallState } from '../../core/mcp/agent-session.js';
import { admitSessionRequest } from '../../core/mcp/admit-session-request.js';
import { closeAgentSession } from '../../core/mcp/close-agent-session.js';
import { mcpCredentialOf } from '../../core/mcp/mcp-credential.js';
import { countsAgainstMcpLimits, requireWithinMcpRate } from '../../core/mcp/mcp-session-limits.js';
import { openKeySession } from '../../core/mcp/open-key-session.js';
import { createSessionCallQueue, type ReadState } from '../../core/mcp/session-call-queue.js';
import { resolvePermissions } from '../../core/policies/resolve-permissions.js';
import type { RawBodyRoute } from '../create-server.js';
import type { Deps } from '../deps.js';
import { bearerTokenOf } from '../middleware/bearer-token.js';
import { isBodyRefusal, readJsonBody } from '../middleware/json-body.js';
import { createMcpSessionTransports, type CreatedMcpSession, type OpenMcpSession } from './mcp-session-transports.js';

export const MCP_PATH = '/api/v1/mcp';
const SESSION_PATH = /^\/api\/v1\/mcp\/sessions\/([0-9a-f-]{36})$/;
const METADATA_PREFIX = '/.well-known/oauth-protected-resource';

export type McpEndpointDeps = Pick<
  Deps,
  | 'config'
  | 'logger'
  | 'journal'
  | 'certifier'
  | 'policies'
  | 'agentSessions'
  | 'agentKeys'
  | 'mcpServers'
  | 'mcpUpstreamClient'
  | 'installationTokens'
  | 'mcpToolPins'
  | 'agentCallApprovals'
  | 'rateLimiter'
>;

/** The MCP endpoint's middleware, and what ends the MCP sessions it holds. */
export interface McpEndpoint extends RawBodyRoute {
  /** Closes the MCP sessions whose agent session has ended (expired, closed, cancelled); the server runs it every ENDED_SWEEP_MS. */
  sweep(): Promise<void>;
  /** The server's shutdown: ends every MCP session here (not the agent sessions). */
  close(): Promise<void>;
}

/** How often the server checks the MCP sessions of this process for an agent session that ended (expired, closed, cancelled). */
export const ENDED_SWEEP_MS = 30_000;

const SESSION_NOT_FOUND = { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null };
const INITIALIZE_FIRST = {
  jsonrpc: '2.0',
  error: { code: -32600, message: 'Bad Request: initialize first (no Mcp-Session-Id).' },
  id: null,
};

function answer(ctx: Koa.Context, status: number, body: unknown): void {
  ctx.status = status;
  ctx.body = body;
}

const shutdownAnswer = (ctx: Koa.Context) => answer(ctx, 503, { detail: 'The server is shutting down.' });

/**
 * The request's body if it is an MCP `initialize`, else undefined: read through the API's one body
 * reader (1 MiB), whose refusals (too large, not JSON) are no initialize either.
 */
async function initializeBody(ctx: Koa.Context): Promise<unknown> {
  try {
    const body = await readJsonBody(ctx);
    return isInitializeRequest(body) ? body : undefined;
  } catch (error) {
    if (isBodyRefusal(error)) return undefined;
    throw error;
  }
}

/**
 * The MCP endpoint of the gateway (docs/mcp-gateway.md): the official SDK's server over
 * Streamable HTTP at /api/v1/mcp and /api/v1/mcp/sessions/{id}, mounted before the API's body
 * parsing (the SDK reads the body itself). The HTTP is here; what it decides is core/mcp/'s: who
 * a token is (mcp-credential.ts), the rate and the caps (mcp-session-limits.ts,
 * held-mcp-sessions.ts), opening a key's session (open-key-session.ts), whether an ended or
 * expired session is refused (admit-session-request.ts) and each MCP session's calls
 * (gateway-session.ts). MCP sessions (`Mcp-Session-Id`) live in this process, each bound to its
 * agent session (and key).
 */
export function buildMcpEndpoint(deps: McpEndpointDeps): McpEndpoint {
  const calls = createSessionCallQueue();
  const sessions = createMcpSessionTransports(deps, calls);
  const now = () => new Date();

  // Per token, by its hash (the bucket name is all PostgreSQL keeps), shared by every replica.
  async function limitRate(tokenHash: string): Promise<void> {
    const perMinute = deps.config.mcp.rateLimitPerMinute;
    if (perMinute > 0) requireWithinMcpRate(await deps.rateLimiter.hit(`mcp:${tokenHash}`, perMinute, 60));
  }

  function unauthorized(ctx: Koa.Context, detail: string): void {
    ctx.set('WWW-Authenticate', `Bearer resource_metadata="${deps.config.publicUrl}${METADATA_PREFIX}${ctx.path}"`);
    answer(ctx, 401, { detail });
  }

  /** The agent session a key's request belongs to: its MCP session's, or one its `initialize` opens; null once answered here. */
  async function keySession(
    ctx: Koa.Context,
    key: AgentKey,
    mcpSessionId: string,
    entry: OpenMcpSession | undefined,
  ): Promise<{ session: AgentSessionCallState; body?: unknown } | null> {
    if (mcpSessionId) {
      const state = entry?.agentKeyId === key.id ? await deps.agentSessions.callState(entry.agentSessionId) : null;
      if (!state) answer(ctx, 404, SESSION_NOT_FOUND);
      return state && { session: state };
    }
    // Only an `initialize` opens a governed session: the body is read here to tell.
    const body = await initializeBody(ctx);
    if (!body) {
      answer(ctx, 400, INITIALIZE_FIRST);
      return null;
    }
    if (sessions.closing()) {
      shutdownAnswer(ctx);
      return null;
    }
    // Refused (429) while the key has its cap of sessions open, before any execution is created.
    const ports = { policies: deps.policies, sessions: deps.agentSessions, mcpServers: deps.mcpServers, resolvePermissions, now };
    const state = await openKeySession(ports, key, deps.config.mcp.maxSessions);
    if (!state) {
      answer(ctx, 404, SESSION_NOT_FOUND);
      return null;
    }
    deps.logger.info(
      { event: 'mcp.session_opened_by_key', execution_id: state.id, agent_key_id: key.id },
      'agent session opened by an agent key',
    );
    return { session: state, body };
  }

  const middleware: Koa.Middleware = async (ctx, next) => {
    if (ctx.method === 'GET' && ctx.path.startsWith(`${METADATA_PREFIX}${MCP_PATH}`)) {
      const resource = ctx.path.slice(METADATA_PREFIX.length);
      ctx.body = {
        resource: `${deps.config.publicUrl}${resource}`,
        bearer_methods_supported: ['header'],
        resource_name: 'shipgate MCP gateway',
      };
      return;
    }
    const pathSession = SESSION_PATH.exec(ctx.path)?.[1];
    if (ctx.path !== MCP_PATH && !pathSession) return next();
    const token = bearerTokenOf(ctx);
    if (!token) return unauthorized(ctx, 'An agent session token or agent key is required: Authorization: Bearer <token>.');
    const tokenHash = hashApiKey(token);
    const mcpSessionId = ctx.get('Mcp-Session-Id');
    let entry = mcpSessionId ? sessions.get(mcpSessionId) : undefined;
    // Read before the session's state: a call that ends after this stamp makes the state stale (session-call-queue.ts).
    const readAt = calls.stamp();
    const credential = await mcpCredentialOf(deps, tokenHash);
    if (!credential) return unauthorized(ctx, 'The token is neither an agent session token nor an active agent key.');
    // Only a known token is counted (an unknown one writes no counter); a DELETE never is.
    if (countsAgainstMcpLimits(ctx.method)) await limitRate(tokenHash);
    let session: AgentSessionCallState;
    let parsedBody: unknown;
    if (credential.session) session = credential.session;
    else {
      if (pathSession) return answer(ctx, 404, { detail: 'Agent session not found.' });
      const found = await keySession(ctx, credential.key, mcpSessionId, entry);
      if (!found) return;
      ({ session, body: parsedBody } = found);
    }
    const agentKeyId = credential.key?.id ?? null;
    const openedByKey = parsedBody !== undefined;
    if (pathSession && pathSession !== session.id) return answer(ctx, 404, { detail: 'Agent session not found.' });
    if (!(await admitSessionRequest(deps, session, ctx.method, now()))) {
      if (entry) await entry.transport.close();
      return answer(ctx, 403, {
        detail: 'This agent session has ended (closed, cancelled, expired, or its owner deactivated); open a new one.',
      });
    }
    if (mcpSessionId && (!entry || entry.agentSessionId !== session.id)) return answer(ctx, 404, SESSION_NOT_FOUND);
    /** The MCP session made for this request, and the end of its key's session once it closed. */
    let created: CreatedMcpSession | undefined;
    if (!entry) {
      if (sessions.closing()) {
        // A key's session opened just now is held by no MCP session: nothing could ever reach it.
        if (openedByKey) await closeAgentSession(deps, session.id);
        return shutdownAnswer(ctx);
      }
      created = await sessions.create(session, agentKeyId);
      entry = created.session;
    }
    // The state read here serves this request's tools/call, unless another call of the session ended since.
    const auth: AuthInfo = { token: '', clientId: session.id, scopes: [], extra: { state: session, readAt } satisfies ReadState };
    (ctx.req as IncomingMessage & { auth?: AuthInfo }).auth = auth;
    ctx.respond = false;
    try {
      await entry.transport.handleRequest(ctx.req, ctx.res, parsedBody);
    } finally {
      // A new transport whose first request was no valid `initialize` has no session: it frees its slot (and ends a key's session) now.
      if (created && !created.session.transport.sessionId) {
        await created.session.transport.close();
        await created.ended();
      }
    }
  };
  return {
    middleware,
    openapi: {},
    sweep: () => sessions.sweep(),
    close: () => sessions.close(),
  };
}
