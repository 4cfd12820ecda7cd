import type Koa from 'koa';

/** The credential of `Authorization: Bearer <credential>`, or undefined when the request has none. */
export function bearerTokenOf(ctx: Koa.Context): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('Authorization'))?.[1];
}
