import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type Koa from 'koa';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RawBodyRoute } from '../api/create-server.js';
import type { Deps } from '../api/deps.js';
import { hashApiKey } from '../core/accounts/api-key.js';
import type { AgentKey } from '../core/mcp/agent-key.js';
import { sessionIsOpen, type AgentSessionCallState } from '../core/mcp/agent-session.js';
import { closeAgentSession } from '../core/mcp/close-agent-session.js';
import { countsAgainstMcpLimits, requireMcpSessionRoom, requireWithinMcpRate } from '../core/mcp/mcp-session-limits.js';
import { openKeySession } from '../core/mcp/open-key-session.js';
import { resolvePermissions } from '../core/policies/resolve-permissions.js';
import { createCallQueue, type ReadState } from './mcp-call-queue.js';
import { createMcpSessionServer, type McpSessionServer } from './mcp-session-server.js';

export const MCP_PATH = '/api/v1/mcp';
const SESSION_PATH = /^\/api\/v1\/mcp\/sessions\/([0-9a-f-]{36})$/;
const METADATA_PREFIX = '/.well-known/oauth-protected-resource';

type GatewayDeps = Pick<
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
  | 'rateLimiter'
>;

/** What a bearer token is: an agent session's token, or an agent key (whose `initialize` opens a session). */
type Credential = { session: AgentSessionCallState; key: null } | { session: null; key: AgentKey };

/** One MCP session of an agent session: the SDK transport and server (with its upstream connections). */
interface OpenMcpSession {
  agentSessionId: string;
  /** The agent key that opened it; null for a session token's. */
  agentKeyId: string | null;
  transport: StreamableHTTPServerTransport;
}

/** The MCP endpoint's middleware, and what ends the MCP sessions it holds. */
export interface McpEndpoint extends RawBodyRoute {
  /** Closes the MCP sessions whose agent session has ended (expired, closed, cancelled); runs every ENDED_SWEEP_MS. */
  sweep(): Promise<void>;
  /** The server's shutdown: ends every MCP session here (not the agent sessions). */
  close(): Promise<void>;
}

/** How often the MCP sessions of this process are checked for an agent session that ended (expired, closed, cancelled). */
export const ENDED_SWEEP_MS = 30_000;

const SESSION_NOT_FOUND = { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null };
/** The largest JSON-RPC body read here (an `initialize` is a few hundred bytes). */
const MAX_INITIALIZE_BYTES = 1024 * 1024;

function notFound(ctx: Koa.Context, body: unknown): void {
  ctx.status = 404;
  ctx.body = body;
}

/** The request's JSON body, or undefined when it is not JSON (or too large). */
async function readJsonBody(ctx: Koa.Context): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > MAX_INITIALIZE_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

function shutdownAnswer(ctx: Koa.Context): void {
  ctx.status = 503;
  ctx.body = { detail: 'The server is shutting down.' };
}

function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match ? match[1] : null;
}

/**
 * The MCP endpoint of the gateway (docs/mcp-gateway.md): the official SDK's server over
 * Streamable HTTP at /api/v1/mcp and /api/v1/mcp/sessions/{id}, mounted before any body parser
 * (the SDK reads the body itself). A session token or an active agent key authenticates every
 * request (an agent key's `initialize` opens a new agent session); MCP sessions
 * (`Mcp-Session-Id`) live in this process, each bound to its agent session (and key).
 */
export function buildMcpEndpoint(deps: GatewayDeps): McpEndpoint {
  const open = new Map<string, OpenMcpSession>();
  /**
   * MCP sessions this process holds per agent session, counted from the moment one is created
   * (before its `initialize` completes) until it closes, so concurrent initializes cannot
   * overshoot the cap; an agent key's are also capped in PostgreSQL (one MCP session per agent session).
   */
  const held = new Map<string, number>();
  const release = (agentSessionId: string) => {
    const count = (held.get(agentSessionId) ?? 1) - 1;
    if (count > 0) held.set(agentSessionId, count);
    else held.delete(agentSessionId);
  };
  let shuttingDown = false;
  // The MCP sessions (and upstream connections) of agent sessions that ended are closed within ENDED_SWEEP_MS.
  async function sweep(): Promise<void> {
    const entries = [...open.values()];
    if (entries.length === 0) return;
    const gone = new Set(await deps.agentSessions.ended([...new Set(entries.map((e) => e.agentSessionId))], new Date()));
    await Promise.all(entries.filter((e) => gone.has(e.agentSessionId)).map((e) => e.transport.close()));
  }
  let sweeper: NodeJS.Timeout | undefined;
  const ensureSweeping = () => {
    if (sweeper) return;
    sweeper = setInterval(
      () =>
        void sweep().catch((error: Error) =>
          deps.logger.warn({ event: 'mcp.sweep_failed', error: error.message }, 'MCP session sweep failed'),
        ),
      ENDED_SWEEP_MS,
    );
    sweeper.unref();
  };
  const calls = createCallQueue();

  /** The token's agent session, or else the active agent key it is; null when it is neither. */
  async function credentialOf(tokenHash: string): Promise<Credential | null> {
    const session = await deps.agentSessions.callStateByToken(tokenHash);
    if (session) return { session, key: null };
    const key = await deps.agentKeys.activeByHash(tokenHash);
    return key ? { session: null, key } : null;
  }

  // Per token, by its hash (the bucket name is all PostgreSQL keeps), shared by every replica.
  async function limitRate(tokenHash: string): Promise<void> {
    const perMinute = deps.config.mcp.rateLimitPerMinute;
    if (perMinute > 0) requireWithinMcpRate(await deps.rateLimiter.hit(`mcp:${tokenHash}`, perMinute, 60));
  }

  async function unauthorized(ctx: Koa.Context, detail: string): Promise<void> {
    ctx.status = 401;
    ctx.set('WWW-Authenticate', `Bearer resource_metadata="${deps.config.publicUrl}${METADATA_PREFIX}${ctx.path}"`);
    ctx.body = { detail };
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
    const token = bearerToken(ctx.get('Authorization'));
    if (!token) return unauthorized(ctx, 'An agent session token or agent key is required: Authorization: Bearer <token>.');
    const tokenHash = hashApiKey(token);
    const mcpSessionId = ctx.get('Mcp-Session-Id');
    let entry = mcpSessionId ? open.get(mcpSessionId) : undefined;
    // Read before the session's state: a call that ends after this stamp makes the state stale (mcp-call-queue.ts).
    const readAt = calls.stamp();
    const credential = await credentialOf(tokenHash);
    if (!credential) return unauthorized(ctx, 'The token is neither an agent session token nor an active agent key.');
    // Only a known token is counted (an unknown one writes no counter); a DELETE never is.
    if (countsAgainstMcpLimits(ctx.method)) await limitRate(tokenHash);
    let session: AgentSessionCallState;
    let agentKeyId: string | null = null;
    let openedByKey = false;
    let parsedBody: unknown;
    if (!credential.key) session = credential.session;
    else {
      const { key } = credential;
      if (pathSession) return notFound(ctx, { detail: 'Agent session not found.' });
      agentKeyId = key.id;
      if (mcpSessionId) {
        if (!entry || entry.agentKeyId !== key.id) return notFound(ctx, SESSION_NOT_FOUND);
        const state = await deps.agentSessions.callState(entry.agentSessionId);
        if (!state) return notFound(ctx, SESSION_NOT_FOUND);
        session = state;
      } else {
        // Only an `initialize` opens a governed session: the body is read here to tell.
        parsedBody = await readJsonBody(ctx);
        if (!isInitializeRequest(parsedBody)) {
          ctx.status = 400;
          ctx.body = { jsonrpc: '2.0', error: { code: -32600, message: 'Bad Request: initialize first (no Mcp-Session-Id).' }, id: null };
          return;
        }
        if (shuttingDown) return shutdownAnswer(ctx);
        // Refused (429) while the key has its cap of sessions open, before any execution is created.
        const opened = await openKeySession(
          { policies: deps.policies, sessions: deps.agentSessions, mcpServers: deps.mcpServers, resolvePermissions, now: () => new Date() },
          key,
          deps.config.mcp.maxSessions,
        );
        openedByKey = true;
        const state = await deps.agentSessions.callState(opened.execution.id);
        if (!state) return notFound(ctx, SESSION_NOT_FOUND);
        session = state;
        deps.logger.info(
          { event: 'mcp.session_opened_by_key', execution_id: session.id, agent_key_id: key.id },
          'agent session opened by an agent key',
        );
      }
    }
    if (pathSession && pathSession !== session.id) return notFound(ctx, { detail: 'Agent session not found.' });
    if (ctx.method !== 'DELETE' && !sessionIsOpen(session, new Date())) {
      if (session.status === 'running') await closeAgentSession(deps, session.id);
      if (entry) await entry.transport.close();
      ctx.status = 403;
      ctx.body = { detail: 'This agent session has ended (closed, cancelled or expired); open a new one.' };
      return;
    }
    if (mcpSessionId && (!entry || entry.agentSessionId !== session.id)) return notFound(ctx, SESSION_NOT_FOUND);
    /** The transport made for this request, and the end of its key's session once it closed. */
    let created: { transport: StreamableHTTPServerTransport; ended(): Promise<void> | undefined } | undefined;
    if (!entry) {
      if (shuttingDown) {
        // A key's session opened just now is held by no MCP session: nothing could ever reach it.
        if (openedByKey) await closeAgentSession(deps, session.id);
        return shutdownAnswer(ctx);
      }
      const agentSessionId = session.id;
      const untilExpiry = (Date.parse(session.expires_at) - Date.now()) / 1000;
      requireMcpSessionRoom(
        'agent session',
        { open: held.get(agentSessionId) ?? 0, secondsToNextExpiry: untilExpiry },
        deps.config.mcp.maxSessions,
      );
      held.set(agentSessionId, (held.get(agentSessionId) ?? 0) + 1);
      const mcp: McpSessionServer = createMcpSessionServer(deps, session, calls);
      // A key's session is one MCP session: when it ends, the governed session ends (not when the server stops), once.
      let ending: Promise<void> | undefined;
      const endKeySession = () =>
        (ending ??= closeAgentSession(deps, agentSessionId).catch((error: Error) =>
          deps.logger.error({ event: 'mcp.session_close_failed', execution_id: agentSessionId, error: error.message }, 'closing failed'),
        ));
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        // A request's answer as one JSON body rather than an event stream: nothing is streamed back to the agent.
        enableJsonResponse: true,
        onsessioninitialized: (id) => void open.set(id, { agentSessionId, agentKeyId, transport }),
        // Awaited before a DELETE is answered, so the key's slot is free for the agent's next `initialize`.
        onsessionclosed: agentKeyId ? endKeySession : undefined,
      });
      transport.onclose = () => {
        release(agentSessionId);
        if (transport.sessionId) open.delete(transport.sessionId);
        if (![...open.values()].some((e) => e.agentSessionId === agentSessionId)) calls.forget(agentSessionId);
        void mcp.close();
        // The same ending as the DELETE's onsessionclosed, when one ran first.
        if (agentKeyId && !shuttingDown) void endKeySession();
      };
      await mcp.server.connect(transport);
      entry = { agentSessionId, agentKeyId, transport };
      created = { transport, ended: () => ending };
      ensureSweeping();
    }
    // The state read here serves this request's tools/call, unless another call of the session ended since.
    const auth: AuthInfo = { token: '', clientId: session.id, scopes: [], extra: { state: session, readAt } satisfies ReadState };
    (ctx.req as IncomingMessage & { auth?: AuthInfo }).auth = auth;
    ctx.respond = false;
    try {
      await entry.transport.handleRequest(ctx.req, ctx.res, parsedBody);
    } finally {
      // A new transport whose first request was no valid `initialize` has no session: it frees its slot (and ends a key's session) now.
      if (created && !created.transport.sessionId) {
        await created.transport.close();
        await created.ended();
      }
    }
  };
  return {
    middleware,
    openapi: {},
    sweep,
    async close() {
      shuttingDown = true;
      if (sweeper) clearInterval(sweeper);
      await Promise.all([...open.values()].map((e) => e.transport.close()));
    },
  };
}
