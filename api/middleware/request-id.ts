import { randomUUID } from 'node:crypto';
import type Koa from 'koa';

const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/;

/** Echoes a sane client X-Request-Id, or makes one; every response carries it. */
export function requestId(): Koa.Middleware {
  return async (ctx, next) => {
    const given = ctx.get('X-Request-Id');
    ctx.state.requestId = ACCEPTABLE.test(given) ? given : randomUUID();
    ctx.set('X-Request-Id', ctx.state.requestId);
    await next();
  };
}
