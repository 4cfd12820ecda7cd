import type Koa from 'koa';

/**
 * The headers every HTML page the server serves carries, and the files it loads: the page's CSP,
 * no MIME sniffing (a script or style is only run as what its Content-Type says), no referrer
 * (a page's URL may name a repository), and `X-Frame-Options: DENY` for browsers older than the
 * CSP's `frame-ancestors 'none'`, so no other site can frame a page and trick clicks on it.
 */
export function setPageSecurityHeaders(ctx: Koa.Context, csp: string): void {
  ctx.set('Content-Security-Policy', csp);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('X-Frame-Options', 'DENY');
}
