import type Koa from 'koa';

/** Lets the configured origins (the studio) call the API from a browser; nobody else. */
export function cors(origins: string[]): Koa.Middleware {
  const allowed = new Set(origins);
  return async (ctx, next) => {
    // Every answer depends on Origin once some are allowed, so a shared cache must key on it.
    if (allowed.size > 0) ctx.vary('Origin');
    const origin = ctx.get('Origin');
    if (!origin || !allowed.has(origin)) return next();
    ctx.set('Access-Control-Allow-Origin', origin);
    ctx.set('Access-Control-Expose-Headers', 'Link, X-Request-Id, Retry-After, ETag');
    if (ctx.method === 'OPTIONS') {
      ctx.set('Access-Control-Allow-Methods', 'GET,POST,PUT,PATCH,DELETE');
      ctx.set('Access-Control-Allow-Headers', 'Authorization, X-API-Key, Content-Type, X-Request-Id, If-None-Match');
      ctx.set('Access-Control-Max-Age', '600');
      ctx.status = 204;
      return;
    }
    return next();
  };
}
