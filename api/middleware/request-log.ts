import type Koa from 'koa';
import type { Logger } from 'pino';
import type { Counter, Histogram } from 'prom-client';

/**
 * One line per request: method, path (never the query string or a body), status, duration;
 * except requests refused because the database is unreachable, which the outage tracker
 * counts into one line per 10 s (a log storm helps nobody during an outage). A handler may add
 * fields to its request's line (`ctx.state.logFields`) instead of writing one more. Also feeds the request metrics, labelled by route template to keep cardinality bounded.
 */
export function requestLog(logger: Logger, requests: Counter, duration: Histogram): Koa.Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const route = (ctx as { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
      requests.inc({ method: ctx.method, route, status: String(ctx.status) });
      duration.observe({ method: ctx.method, route }, ms / 1000);
      if (!ctx.state.databaseUnavailable)
        logger.info(
          {
            request_id: ctx.state.requestId,
            method: ctx.method,
            path: ctx.path,
            ip: ctx.ip,
            status: ctx.status,
            ms: Math.round(ms * 10) / 10,
            user_id: ctx.state.userId,
            // What the handler did, when it says so here rather than in a line of its own (a gateway call: api/mcp/mcp-endpoint.ts).
            ...(ctx.state.logFields as Record<string, unknown> | undefined),
          },
          'request',
        );
    }
  };
}
