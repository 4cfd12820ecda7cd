import { randomUUID } from 'node:crypto';
import type Koa from 'koa';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { hashApiKey } from '../../core/accounts/api-key.js';
import { retryAfterHit } from '../../core/accounts/rate-limiter.js';
import type { AgentSessionCallState } from '../../core/mcp/agent-session.js';
import { admitSessionRequest } from '../../core/mcp/admit-session-request.js';
import { closeAgentSession } from '../../core/mcp/close-agent-session.js';
import { mcpCredentialOf } from '../../core/mcp/mcp-credential.js';
import { countsAgainstMcpLimits, requireWithinMcpRate } from '../../core/mcp/mcp-session-limits.js';
import { MCP_SESSION_USE_WRITE_MS, mcpSessionOpen, type McpSessionRecord, type McpSessionState } from '../../core/mcp/mcp-sessions.js';
import { openKeySession } from '../../core/mcp/open-key-session.js';
import { createSessionCallQueue, type ReadState } from '../../core/mcp/session-call-queue.js';
import { resolvePermissions } from '../../core/policies/resolve-permissions.js';
import type { RawBodyRoute } from '../create-server.js';
import type { Deps } from '../deps.js';
import { bearerTokenOf } from '../middleware/bearer-token.js';
import { initializeOf, mcpRefusal, postHeadersRefusal, protocolVersionRefusal, readMcpPost, type McpRefusal } from './mcp-post-messages.js';
import { createReplicaMcpSessions, type ReplicaMcpSessionsDeps, type ServedMcpSession } from './replica-mcp-sessions.js';

export const MCP_PATH = '/api/v1/mcp';
const SESSION_PATH = /^\/api\/v1\/mcp\/sessions\/([0-9a-f-]{36})$/;
const METADATA_PREFIX = '/.well-known/oauth-protected-resource';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type McpEndpointDeps = ReplicaMcpSessionsDeps & Pick<Deps, 'policies' | 'agentKeys' | 'rateLimiter'>;

/** The MCP endpoint's middleware, and what lets go of the MCP sessions this replica serves. */
export interface McpEndpoint extends RawBodyRoute {
  /** Lets go the MCP sessions served here that ended (on any replica) or sit idle; the server runs it every ENDED_SWEEP_MS. */
  sweep(): Promise<void>;
  /** The server's shutdown: lets go every MCP session served here (not the sessions themselves, which other replicas serve). */
  close(): Promise<void>;
}

/** How often the server lets go the MCP sessions it serves whose MCP or agent session ended (expired, closed, cancelled). */
export const ENDED_SWEEP_MS = 30_000;

const SESSION_NOT_FOUND = mcpRefusal(404, -32001, 'Session not found');
const INITIALIZE_FIRST = mcpRefusal(400, -32600, 'Bad Request: initialize first (no Mcp-Session-Id).');
const ALREADY_INITIALIZED = mcpRefusal(400, -32600, 'Invalid Request: Server already initialized');
const ENDED = { detail: 'This agent session has ended (closed, cancelled, expired, or its owner deactivated); open a new one.' };

function answer(ctx: Koa.Context, status: number, body: unknown): void {
  ctx.status = status;
  // Koa would turn a null body into 204; Streamable HTTP answers 200 (DELETE) and 202 (notifications) empty.
  ctx.body = body ?? '';
}
const refuse = (ctx: Koa.Context, refusal: McpRefusal) => answer(ctx, refusal.status, refusal.body);
const shutdownAnswer = (ctx: Koa.Context) => answer(ctx, 503, { detail: 'The server is shutting down.' });

/**
 * The MCP endpoint of the gateway (docs/mcp-gateway.md): Streamable HTTP at /api/v1/mcp and
 * /api/v1/mcp/sessions/{id}, each POST answered with one JSON body by the official SDK's server
 * (api/mcp/json-response-transport.ts), mounted before the API's body parsing. MCP sessions
 * (`Mcp-Session-Id`) are rows in PostgreSQL (core/mcp/mcp-sessions.ts), so any replica serves
 * any of them (replica-mcp-sessions.ts). The HTTP is here; what it decides is core/mcp/'s: who a
 * token is (mcp-credential.ts), the rate and the caps (mcp-session-limits.ts), opening a key's
 * session (open-key-session.ts), whether an ended or expired session is refused
 * (admit-session-request.ts) and each call (gateway-session.ts).
 */
export function buildMcpEndpoint(deps: McpEndpointDeps): McpEndpoint {
  const calls = createSessionCallQueue();
  const sessions = createReplicaMcpSessions(deps, calls);
  const now = () => new Date();

  // Per token, by its hash (the bucket name is all PostgreSQL keeps), shared by every replica.
  async function limitRate(ctx: Koa.Context, tokenHash: string): Promise<void> {
    const perMinute = deps.config.mcp.rateLimitPerMinute;
    if (perMinute > 0 && countsAgainstMcpLimits(ctx.method))
      requireWithinMcpRate(await deps.rateLimiter.hit(`mcp:${tokenHash}`, perMinute, 60));
  }

  function unauthorized(ctx: Koa.Context): void {
    ctx.set('WWW-Authenticate', `Bearer resource_metadata="${deps.config.publicUrl}${METADATA_PREFIX}${ctx.path}"`);
    answer(ctx, 401, { detail: 'The token is neither an agent session token nor an active agent key.' });
  }

  /** Answers `messages` with the SDK's server of the MCP session: one JSON body, or 202 when they hold no request. */
  async function exchange(
    ctx: Koa.Context,
    served: ServedMcpSession,
    session: AgentSessionCallState,
    post: { messages: JSONRPCMessage[]; batch: boolean },
    readAt: number,
  ): Promise<void> {
    // The state read here serves this request's tools/call, unless another call of the session ended since.
    // A call's `mcp.tool_call` fields join the request's one log line (api/middleware/request-log.ts) rather than a line of their own.
    const annotate = (fields: Record<string, unknown>) => void Object.assign((ctx.state.logFields ??= {}) as object, fields);
    const auth: AuthInfo = {
      token: '',
      clientId: session.id,
      scopes: [],
      extra: { state: session, readAt, annotate } satisfies ReadState & { annotate: typeof annotate },
    };
    const responses = await served.transport.exchange(post.messages, auth);
    ctx.set('Mcp-Session-Id', served.id);
    if (responses.length === 0) return answer(ctx, 202, null);
    answer(ctx, 200, post.batch ? responses : responses[0]);
  }

  /** A request of an existing MCP session, on whichever replica it lands. */
  async function serveSession(ctx: Koa.Context, tokenHash: string, mcpSessionId: string, pathSession: string | undefined): Promise<void> {
    const readAt = calls.stamp();
    // A session token's request is counted against its rate in the same statement that reads its session.
    const perMinute = deps.config.mcp.rateLimitPerMinute;
    const hit =
      perMinute > 0 && countsAgainstMcpLimits(ctx.method) ? { tokenHash, bucket: `mcp:${tokenHash}`, windowSeconds: 60 } : undefined;
    const found: McpSessionState | null = UUID.test(mcpSessionId) ? await deps.mcpSessions.state(mcpSessionId, hit) : null;
    let session = found && found.sessionTokenHash === tokenHash ? found.session : null;
    // An agent key's MCP session: its key, looked up by the token's hash, must be the one that opened it (and its creator active).
    if (!session && found?.mcp.agent_key_id) {
      const key = await deps.agentKeys.activeByHash(tokenHash);
      if (key?.creator_active && key.key.id === found.mcp.agent_key_id && !pathSession) session = found.session;
    }
    if (!session) {
      const credential = await mcpCredentialOf(deps, tokenHash);
      if (!credential) return unauthorized(ctx);
      await limitRate(ctx, tokenHash);
      if (credential.key && pathSession) return answer(ctx, 404, { detail: 'Agent session not found.' });
      if (credential.session && pathSession && pathSession !== credential.session.id)
        return answer(ctx, 404, { detail: 'Agent session not found.' });
      if (!found || !credential.key || found.mcp.agent_key_id !== credential.key.id) return refuse(ctx, SESSION_NOT_FOUND);
      session = found.session;
    } else if (found?.hit) requireWithinMcpRate(retryAfterHit(found.hit.count, found.hit.retry, perMinute));
    else await limitRate(ctx, tokenHash);
    if (pathSession && pathSession !== session.id) return answer(ctx, 404, { detail: 'Agent session not found.' });
    const { mcp } = found!;
    // Ended by its DELETE, or unused so long that its client went away (docs/mcp-gateway.md, "Any replica serves any session").
    if (!mcpSessionOpen(mcp, now())) {
      await sessions.drop(mcp.id);
      return refuse(ctx, SESSION_NOT_FOUND);
    }
    if (Date.now() - Date.parse(mcp.last_used_at) >= MCP_SESSION_USE_WRITE_MS) await deps.mcpSessions.used(mcp.id);
    if (!(await admitSessionRequest(deps, session, ctx.method, now()))) {
      await sessions.drop(mcp.id);
      return answer(ctx, 403, ENDED);
    }
    const versionRefusal = protocolVersionRefusal(ctx);
    if (versionRefusal) return refuse(ctx, versionRefusal);
    if (ctx.method === 'DELETE') return endMcpSession(ctx, mcp, session);
    if (ctx.method !== 'POST') {
      // No stream is kept open for the server's own messages: it sends none (docs/mcp-gateway.md, "Any replica serves any session").
      ctx.set('Allow', 'POST, DELETE');
      return refuse(ctx, mcpRefusal(405, -32000, 'Method not allowed: this server sends no messages of its own.'));
    }
    const refusal = postHeadersRefusal(ctx);
    if (refusal) return refuse(ctx, refusal);
    const post = await readMcpPost(ctx);
    if ('status' in post) return refuse(ctx, post);
    if (initializeOf(post)) return refuse(ctx, ALREADY_INITIALIZED);
    if (sessions.closing()) return shutdownAnswer(ctx);
    const state = session;
    await sessions.use(mcp, state, false, (served) => exchange(ctx, served, state, post, readAt));
  }

  /** A `DELETE`: the MCP session ends on every replica; an agent key's governed session ends with it, before the answer. */
  async function endMcpSession(ctx: Koa.Context, mcp: McpSessionRecord, session: AgentSessionCallState): Promise<void> {
    await deps.mcpSessions.end(mcp.id);
    await sessions.drop(mcp.id);
    if (mcp.agent_key_id) await closeAgentSession(deps, session.id);
    answer(ctx, 200, null);
  }

  /** A request without `Mcp-Session-Id`: only an `initialize` opens an MCP session (and, for an agent key, its governed session). */
  async function serveInitialize(ctx: Koa.Context, tokenHash: string, pathSession: string | undefined): Promise<void> {
    const readAt = calls.stamp();
    const credential = await mcpCredentialOf(deps, tokenHash);
    if (!credential) return unauthorized(ctx);
    await limitRate(ctx, tokenHash);
    if (credential.key && pathSession) return answer(ctx, 404, { detail: 'Agent session not found.' });
    if (credential.session && pathSession && pathSession !== credential.session.id)
      return answer(ctx, 404, { detail: 'Agent session not found.' });
    if (ctx.method !== 'POST') return refuse(ctx, INITIALIZE_FIRST);
    const refusal = postHeadersRefusal(ctx);
    if (refusal) return refuse(ctx, refusal);
    const post = await readMcpPost(ctx);
    // A body refused as such (not JSON, too large, nested too deep) is told so, as within a session.
    if ('status' in post) return refuse(ctx, post);
    const initialize = initializeOf(post);
    if (!initialize) return refuse(ctx, INITIALIZE_FIRST);
    if (sessions.closing()) return shutdownAnswer(ctx);
    let session = credential.session;
    if (credential.key) {
      // Refused (429) while the key has its cap of sessions open, before any execution is created.
      const ports = { policies: deps.policies, sessions: deps.agentSessions, mcpServers: deps.mcpServers, resolvePermissions, now };
      session = await openKeySession(ports, credential.key, deps.config.mcp.maxSessions);
      if (!session) return refuse(ctx, SESSION_NOT_FOUND);
      deps.logger.info(
        { event: 'mcp.session_opened_by_key', execution_id: session.id, agent_key_id: credential.key.id },
        'agent session opened by an agent key',
      );
    }
    if (!session) return refuse(ctx, SESSION_NOT_FOUND);
    if (!(await admitSessionRequest(deps, session, ctx.method, now()))) return answer(ctx, 403, ENDED);
    const requested = initialize.params.protocolVersion;
    const record: McpSessionRecord = {
      id: randomUUID(),
      agent_session_id: session.id,
      agent_key_id: credential.key?.id ?? null,
      // As the SDK's server negotiates it.
      protocol_version: SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION,
      client_info: initialize.params.clientInfo,
      client_capabilities: initialize.params.capabilities,
      ended_at: null,
      last_used_at: now().toISOString(),
    };
    try {
      // Refused (429) while the agent session has its cap of MCP sessions open, on any replica.
      await deps.mcpSessions.open(record, session.expires_at, deps.config.mcp.maxSessions);
    } catch (error) {
      // A key's session opened just now is held by no MCP session: nothing could ever reach it.
      if (credential.key) await closeAgentSession(deps, session.id);
      throw error;
    }
    const state = session;
    await sessions.use(record, state, true, (served) => exchange(ctx, served, state, post, readAt));
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
    if (!token) {
      ctx.set('WWW-Authenticate', `Bearer resource_metadata="${deps.config.publicUrl}${METADATA_PREFIX}${ctx.path}"`);
      return answer(ctx, 401, { detail: 'An agent session token or agent key is required: Authorization: Bearer <token>.' });
    }
    const tokenHash = hashApiKey(token);
    const mcpSessionId = ctx.get('Mcp-Session-Id');
    if (mcpSessionId) return serveSession(ctx, tokenHash, mcpSessionId, pathSession);
    return serveInitialize(ctx, tokenHash, pathSession);
  };
  return { middleware, openapi: {}, sweep: () => sessions.sweep(), close: () => sessions.close() };
}
