import type Koa from 'koa';
import { SIGN_IN_STATE_TTL_MS } from '../core/accounts/github-sign-in.js';

/**
 * The cookie that binds a "Sign in with GitHub" (or a link) to the browser that started it
 * (docs/github-app.md, "Sign in with GitHub"): `/auth/github/start` and `POST /auth/github/link` put a
 * random nonce in it, the state keeps only the nonce's SHA-256, and the callback requires it, so a
 * state handed to someone else's browser (login CSRF, a link planted on a victim) is refused.
 *
 * HttpOnly (no script reads it), SameSite=Lax (sent on GitHub's top-level redirect back, never on a
 * cross-site subrequest), path `/`, for the state's 10 minutes. Under an https SHIPGATE_PUBLIC_URL it
 * is `__Host-` and Secure: no sibling subdomain can set or overwrite it. Browsers refuse both on
 * plain http, so there (a loopback or local address; docs/operations.md, "Security") the same
 * cookie goes without the prefix and without Secure.
 */
export interface SignInCookie {
  /** The Set-Cookie value that stores `nonce`. */
  set(nonce: string): string;
  /** The Set-Cookie value that removes it (after the callback, whatever its outcome). */
  clear(): string;
  /** The nonce the request's browser holds, if any. */
  read(ctx: Koa.Context): string | undefined;
}

const NAME = 'shipgate_github_sign_in';

/** The cookie for the origin of `publicUrl` (where GitHub sends the browser back). */
export function signInCookie(publicUrl: string): SignInCookie {
  const secure = new URL(publicUrl).protocol === 'https:';
  const name = secure ? `__Host-${NAME}` : NAME;
  const attributes = ['Path=/', 'HttpOnly', 'SameSite=Lax', ...(secure ? ['Secure'] : [])].join('; ');
  return {
    set: (nonce) => `${name}=${nonce}; Max-Age=${SIGN_IN_STATE_TTL_MS / 1000}; ${attributes}`,
    clear: () => `${name}=; Max-Age=0; ${attributes}`,
    read(ctx) {
      for (const pair of (ctx.get('Cookie') ?? '').split(';')) {
        const at = pair.indexOf('=');
        if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim() || undefined;
      }
      return undefined;
    },
  };
}
