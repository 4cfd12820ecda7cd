import { STATUS_CODES } from 'node:http';
import type Koa from 'koa';
import type { Logger } from 'pino';
import {
  AuthenticationError,
  ConflictError,
  EvidenceDocumentInvalid,
  EvidenceParseDeadlineExceeded,
  ForbiddenError,
  NotFoundError,
  PolicyDeniedError,
  RateLimitedError,
  UnavailableError,
  ValidationError,
} from '../../core/errors.js';
import { databaseOutage } from '../../db/database-outage.js';

// Statuses the routers answer without a body (unknown route, wrong method).
const EMPTY_ERROR_TEXT: Record<number, string> = { 404: 'Not found.', 405: 'Method not allowed.' };

interface Mapped {
  status: number;
  detail: unknown;
  headers?: Record<string, string>;
}

function mapError(error: unknown): Mapped | undefined {
  if (error instanceof ValidationError) return { status: 422, detail: error.issues };
  // The only document a request carries is POST /releases/evidence's `content`; loc points inside it.
  if (error instanceof EvidenceDocumentInvalid)
    return { status: 422, detail: [{ loc: ['body', 'content', ...error.loc], msg: error.message, type: 'evidence_document_invalid' }] };
  if (error instanceof EvidenceParseDeadlineExceeded)
    return { status: 422, detail: [{ loc: ['body', 'content'], msg: error.message, type: 'evidence_parse_deadline_exceeded' }] };
  if (error instanceof NotFoundError) return { status: 404, detail: error.message };
  if (error instanceof ConflictError) return { status: 409, detail: error.message };
  if (error instanceof AuthenticationError) return { status: 401, detail: error.message, headers: { 'WWW-Authenticate': 'Bearer' } };
  if (error instanceof PolicyDeniedError) return { status: 403, detail: { message: error.message, denied: error.denied } };
  if (error instanceof ForbiddenError) return { status: 403, detail: error.message };
  if (error instanceof RateLimitedError)
    return { status: 429, detail: error.message, headers: { 'Retry-After': String(error.retryAfterSeconds) } };
  if (error instanceof UnavailableError) return { status: 503, detail: error.message, headers: { 'Retry-After': '5' } };
  const http = error as { status?: number; expose?: boolean; message?: string };
  if (typeof http?.status === 'number' && http.status >= 400 && http.status < 500 && http.expose) {
    return { status: http.status, detail: http.message };
  }
  return undefined;
}

/**
 * A body the client stopped sending (its connection closed, or Node's request timeout closed it:
 * server/answer-client-error.ts): a 400 in the log, not an unhandled error; nobody reads the answer.
 */
function cutOff(ctx: Koa.Context, error: unknown): Mapped | undefined {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  const aborted = code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || message === 'aborted';
  return aborted && ctx.req.destroyed ? { status: 400, detail: 'The request ended before its body did.' } : undefined;
}

/** The one place that turns errors into `{"detail": ...}` responses. Never leaks internals. */
export function errorHandler(logger: Logger): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status >= 400 && !ctx.body) {
        const status = ctx.status;
        ctx.body = { detail: EMPTY_ERROR_TEXT[status] ?? STATUS_CODES[status] ?? 'Error.' };
        ctx.status = status; // Koa turns an implicit 404 into 200 when a body is set
      }
    } catch (error) {
      const mapped = mapError(error) ?? cutOff(ctx, error);
      // Counted into one "database unavailable" line per 10 s instead of a line per request.
      if (mapped?.status === 503 && databaseOutage(logger).report(error, 'request')) ctx.state.databaseUnavailable = true;
      if (mapped) {
        ctx.status = mapped.status;
        ctx.body = { detail: mapped.detail };
        for (const [k, v] of Object.entries(mapped.headers ?? {})) ctx.set(k, v);
        return;
      }
      logger.error({ err: error, request_id: ctx.state.requestId }, 'unhandled error');
      ctx.status = 500;
      ctx.body = { detail: 'Internal server error', request_id: ctx.state.requestId };
    }
  };
}
