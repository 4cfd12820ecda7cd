import type Koa from 'koa';
import { authenticateKey } from '../../core/accounts/authenticate-key.js';
import { requireRoleOf } from '../../core/accounts/authorize.js';
import type { Principal } from '../../core/accounts/user.js';
import { RateLimitedError } from '../../core/errors.js';
import type { Deps } from '../deps.js';
import type { Auth } from '../route.js';
import { bearerTokenOf } from './bearer-token.js';

/** The key from `Authorization: Bearer` or `X-API-Key`; never from the query string. */
export function apiKeyOf(ctx: Koa.Context): string | undefined {
  return bearerTokenOf(ctx) ?? (ctx.get('X-API-Key').trim() || undefined);
}

/** Resolves the caller for a route's auth rule, applying the per-key rate limit. */
export async function authenticate(ctx: Koa.Context, deps: Deps, auth: Auth): Promise<Principal | undefined> {
  if (auth === 'public') return undefined;
  const caller = await authenticateKey(deps.accounts, apiKeyOf(ctx));
  if (auth !== 'any') requireRoleOf(caller, auth);
  await limit(deps, `key:${caller.keyHash}`);
  ctx.state.userId = caller.user.id;
  return caller;
}

/** Counts one request against `bucket`; 429 with Retry-After past the configured rate. */
export async function limit(deps: Deps, bucket: string): Promise<void> {
  const perMinute = deps.config.rateLimitPerMinute;
  if (perMinute <= 0) return;
  const retryAfter = await deps.rateLimiter.hit(bucket, perMinute, 60);
  if (retryAfter > 0) throw new RateLimitedError('Rate limit exceeded; slow down.', retryAfter);
}
