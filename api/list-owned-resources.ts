import type Koa from 'koa';
import type { Principal } from '../core/accounts/user.js';
import { assertMayListAll } from '../core/executions/execution-access.js';
import type { Page, PageRequest } from '../core/pagination.js';
import type { RouteResult } from './route.js';
import { linkNext, pageRequest } from './schemas/pagination-schemas.js';

/** A store of resources with an `owner_id`, listed newest first by keyset (executions, workflows). */
export interface OwnedResourceLister<S, T> {
  list(query: { ownerId?: string; status?: S; page: PageRequest; repoRoots?: string[] }): Promise<Page<T>>;
}

/**
 * The list routes of owned resources: the caller's own, or everyone's with `scope=all` (ADMIN
 * and AUDITOR, 403 for other roles; ARCHITECTURE.md, "Where domain rules live"), optionally
 * one status, with the next page in the `Link` header.
 */
export async function listOwnedResources<S, T>(
  store: OwnedResourceLister<S, T>,
  query: { scope: 'own' | 'all'; status?: S; limit: number; cursor?: string },
  caller: Principal,
  ctx: Koa.Context,
  readable: (caller: Principal) => Promise<string[] | undefined>,
): Promise<RouteResult & { body: T[] }> {
  if (query.scope === 'all') assertMayListAll(caller);
  const page = await store.list({
    ownerId: query.scope === 'all' ? undefined : caller.user.id,
    status: query.status,
    page: pageRequest(query),
    // Those bound to a repository the caller cannot read on GitHub are not listed (docs/api.md, "Repository access").
    repoRoots: await readable(caller),
  });
  linkNext(ctx, page.next);
  return { body: page.items };
}
