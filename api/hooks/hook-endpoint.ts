import type Koa from 'koa';
import { hashApiKey } from '../../core/accounts/api-key.js';
import { HOOK_AGENTS, type HookAgent, type HookEvent } from '../../core/hooks/hook-call.js';
import { openAhead } from '../../core/hooks/open-ahead.js';
import { setBounded } from '../../core/set-bounded.js';
import type { HookDeps, HookTerms } from '../../core/hooks/hook-ports.js';
import { hookSessionOf } from '../../core/hooks/hook-session.js';
import { postToolUse } from '../../core/hooks/post-tool-use.js';
import { HELD_EVENT, preToolUse } from '../../core/hooks/pre-tool-use.js';
import { rememberOpenCalls } from '../../core/hooks/open-call-memory.js';
import { admitSessionRequest } from '../../core/mcp/admit-session-request.js';
import { createSessionCallQueue } from '../../core/mcp/session-call-queue.js';
import { resolvePermissions } from '../../core/policies/resolve-permissions.js';
import type { RawBodyRoute } from '../create-server.js';
import type { Deps } from '../deps.js';
import { bearerTokenOf } from '../middleware/bearer-token.js';
import { readScannedJsonBody, type JsonBodyRead } from '../middleware/json-body.js';
import { createExpectedPosts } from './expected-posts.js';
import { hookAnswer } from './hook-answer.js';
import { hookCredentialOf } from './hook-credential.js';
import { hookEventOf } from './hook-event-of.js';
import { hookOpenApi } from './hook-openapi.js';

export const HOOKS_PATH = '/api/v1/hooks';
/** A post carries the tool's whole response (a file read, a command's output): up to this much, parsed off the event loop past 1 MiB. */
export const HOOK_BODY_BYTES = 8 * 1024 * 1024;
/** Sessions whose terms (policy, permissions: fixed when a session opens) this process keeps. */
const TERMS_KEPT = 10_000;

export type HookEndpointDeps = Pick<
  Deps,
  | 'config'
  | 'logger'
  | 'journal'
  | 'gatewayCalls'
  | 'certifier'
  | 'policies'
  | 'agentSessions'
  | 'agentKeys'
  | 'mcpServers'
  | 'agentCallApprovals'
  | 'rateLimiter'
  | 'parseLargeJsonBody'
  | 'hookCalls'
>;

/** A body not read yet. */
const NOT_READ = Symbol('not read');

/**
 * A hook's body, parsed: JSON whatever its Content-Type claims (a command hook's `curl -d` says form-encoded); undefined
 * when empty. With it, whether it may hold a NUL or a lone surrogate, found in the pass over its bytes (hook-event-of.ts).
 */
function readHookBody(ctx: Koa.Context, parseLarge: HookEndpointDeps['parseLargeJsonBody']): Promise<JsonBodyRead | undefined> {
  ctx.request.headers['content-type'] = 'application/json';
  return readScannedJsonBody(ctx, HOOK_BODY_BYTES, parseLarge);
}

function answer(ctx: Koa.Context, status: number, body: unknown): void {
  ctx.status = status;
  ctx.body = body;
}

/**
 * The hook endpoint of coding agents (docs/agent-hooks.md): `POST /api/v1/hooks/{agent}` takes
 * Claude Code's, Copilot CLI's or Gemini CLI's own hook input and answers in that agent's format.
 * The HTTP is here; core/hooks/ decides: which session a request belongs to (hook-session.ts),
 * a call before it runs (pre-tool-use.ts) and its record after (post-tool-use.ts). Mounted ahead
 * of the API's routers: it authenticates agent credentials (a session token or an agent key, as
 * the MCP endpoint does), not API keys, and under the MCP endpoint's per-token rate.
 */
export function buildHookEndpoint(deps: HookEndpointDeps): RawBodyRoute {
  const calls = createSessionCallQueue();
  const expectedPosts = createExpectedPosts();
  const now = () => new Date();
  const terms = new Map<string, Promise<HookTerms>>();
  const termsOf = (sessionId: string): Promise<HookTerms> => {
    let found = terms.get(sessionId);
    if (!found) {
      found = deps.journal.load(sessionId).then(({ policy, execution }) => ({
        policy,
        policyRef: execution.policy,
        permissions: execution.permissions,
      }));
      found.catch(() => terms.delete(sessionId));
      if (terms.size >= TERMS_KEPT) terms.clear();
      terms.set(sessionId, found);
    }
    return found;
  };
  const roots = new Map<string, string>();
  const denied = new Set<string>();
  const hookDeps: HookDeps = {
    async rootOf(sessionId, cwd) {
      const known = roots.get(sessionId);
      if (known !== undefined) return known;
      const root = await deps.hookCalls.establishRoot(sessionId, cwd);
      setBounded(roots, sessionId, root, TERMS_KEPT);
      return root;
    },
    firstDenial: (sessionId) => {
      if (denied.has(sessionId)) return false;
      if (denied.size >= TERMS_KEPT) denied.clear();
      denied.add(sessionId);
      return true;
    },
    gatewayCalls: deps.gatewayCalls,
    certifier: deps.certifier,
    agentSessions: deps.agentSessions,
    hookCalls: rememberOpenCalls(deps.hookCalls),
    agentCallApprovals: deps.agentCallApprovals,
    calls,
    now,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    log: (event, fields) => deps.logger.info({ event, ...fields }, event),
  };
  /** A call's fields join its request's one log line (api/middleware/request-log.ts); a held call's wait is told at once, in a line of its own. */
  const depsOf = (ctx: Koa.Context): HookDeps => ({
    ...hookDeps,
    log: (event, fields) =>
      event === HELD_EVENT ? hookDeps.log(event, fields) : void Object.assign((ctx.state.logFields ??= {}) as object, { event, ...fields }),
  });
  const sessionPorts = {
    policies: deps.policies,
    sessions: deps.agentSessions,
    mcpServers: deps.mcpServers,
    resolvePermissions,
    now,
    hookCalls: deps.hookCalls,
    close: deps,
  };

  /** Session tokens this process authenticated, to their sessions (a token names one session for good). */
  const sessionTokens = new Map<string, string>();
  /** Completes the call this process allowed that `post` expects, if any: whether it was recorded. */
  const completedExpectedPost = async (ctx: Koa.Context, tokenHash: string, agent: HookAgent, post: HookEvent & { kind: 'post' }) => {
    const sessionId = expectedPosts.take(tokenHash, agent, post.call);
    if (!sessionId) return false;
    const outcome = await postToolUse(depsOf(ctx), sessionId, null, await termsOf(sessionId), post.call, post.response, post.durationMs);
    // Not recorded (its session ended, say): then served as any post, after its credential is read.
    return 'recorded' in outcome;
  };

  const middleware: Koa.Middleware = async (ctx, next) => {
    if (!ctx.path.startsWith(`${HOOKS_PATH}/`)) return next();
    const agent = ctx.path.slice(HOOKS_PATH.length + 1) as HookAgent;
    if (!HOOK_AGENTS.includes(agent))
      return answer(ctx, 404, { detail: `No hook endpoint for '${agent}': use one of ${HOOK_AGENTS.join(', ')}.` });
    if (ctx.method !== 'POST') {
      ctx.set('Allow', 'POST');
      return answer(ctx, 405, { detail: 'A hook endpoint takes POST only.' });
    }
    const token = bearerTokenOf(ctx);
    if (!token) {
      ctx.set('WWW-Authenticate', 'Bearer');
      return answer(ctx, 401, { detail: 'An agent session token or agent key is required: Authorization: Bearer <token>.' });
    }
    const tokenHash = hashApiKey(token);
    // Taken before the session's state is read: a call of it ending after this makes that state stale (session-call-queue.ts).
    const readAt = calls.stamp();
    // A token this process authenticated before has its body read first: a post completing a call
    // it allowed is not authenticated again (expected-posts.ts); a pre's call may open with its credential (open-ahead.ts).
    const knownSession = sessionTokens.get(tokenHash);
    let body = knownSession || expectedPosts.awaitsPostWith(tokenHash) ? await readHookBody(ctx, deps.parseLargeJsonBody) : NOT_READ;
    let parsed = body !== NOT_READ && body !== undefined ? hookEventOf(agent, body.value, body.maybeUnstorable) : undefined;
    const early = parsed && 'event' in parsed ? parsed.event : undefined;
    if (early?.kind === 'post' && (await completedExpectedPost(ctx, tokenHash, agent, early))) return answer(ctx, 200, {});
    // The session's root is known here once this process served its first pre (pre-tool-use.ts sets it).
    const root = knownSession ? roots.get(knownSession) : undefined;
    const ahead =
      early?.kind === 'pre' && knownSession && root !== undefined
        ? openAhead(await termsOf(knownSession), root, knownSession, early.call, now())
        : null;
    const credential = await hookCredentialOf(deps, tokenHash, deps.config.mcp.rateLimitPerMinute, ahead);
    if (!credential) {
      ctx.set('WWW-Authenticate', 'Bearer');
      return answer(ctx, 401, { detail: 'The token is neither an agent session token nor an active agent key.' });
    }
    if (credential.session) setBounded(sessionTokens, tokenHash, credential.session.id, TERMS_KEPT);
    if (body === NOT_READ) body = await readHookBody(ctx, deps.parseLargeJsonBody);
    if (body === undefined) return answer(ctx, 400, { detail: "The body must be the agent's hook input (JSON); it was empty." });
    parsed ??= hookEventOf(agent, body.value, body.maybeUnstorable);
    if ('problem' in parsed) return answer(ctx, 422, { detail: parsed.problem });
    const { event, format } = parsed;
    if (event.kind === 'other') return answer(ctx, 200, {});
    const session = await hookSessionOf(sessionPorts, credential, agent, event.call.cliSessionId, deps.config.mcp.maxSessions);
    if (!session) return answer(ctx, 404, { detail: 'Agent session not found.' });
    // A session found past its expiry (or its owner deactivated) is ended now; its calls are refused.
    const open = await admitSessionRequest(deps, session, 'POST', now());
    const sessionTerms = await termsOf(session.id);
    if (event.kind === 'pre') {
      const state = open ? session : { ...session, status: 'completed' as const };
      const opened = ahead && { call: ahead, id: credential.openedAhead };
      const verdict = await preToolUse(depsOf(ctx), { state, readAt }, sessionTerms, event.call, opened);
      if (verdict.decision === 'allow') expectedPosts.expect(tokenHash, agent, event.call, session.id);
      return answer(ctx, 200, hookAnswer(format, verdict));
    }
    await postToolUse(depsOf(ctx), session.id, { state: session, readAt }, sessionTerms, event.call, event.response, event.durationMs);
    return answer(ctx, 200, {});
  };

  return { middleware, openapi: hookOpenApi() };
}
