import type Koa from 'koa';
import { z } from 'zod';
import type { ResponseHeader } from '../route.js';
import { decodeCursor, encodeCursor, type Cursor, type PageRequest } from '../../core/pagination.js';

/** `limit` (1-100, default 20) and the opaque `cursor`; extend it with a resource's filters. */
export const pageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20).meta({ description: 'Page size, 1-100.' }),
  cursor: z
    .string()
    .max(200)
    .optional()
    .refine((c) => c === undefined || decodeCursor(c) !== undefined, 'Invalid cursor.')
    .meta({ description: "Opaque cursor from the previous page's Link header." }),
});

/** The documented `Link` header of a paged list (absent on the last page). */
export const linkNextHeader: Record<string, ResponseHeader> = {
  Link: { description: '`<...>; rel="next"` when another page exists.', schema: z.string().optional() },
};

export function pageRequest(query: { limit: number; cursor?: string }): PageRequest {
  return { limit: query.limit, cursor: query.cursor ? decodeCursor(query.cursor) : undefined };
}

/**
 * Announces the next page as `Link: <url>; rel="next"`, keeping the other query parameters.
 * `next` is a keyset cursor, or an already encoded one for lists with another order.
 */
export function linkNext(ctx: Koa.Context, next: Cursor | string | undefined): void {
  if (next === undefined) return;
  const url = new URL(ctx.originalUrl, 'http://placeholder');
  url.searchParams.set('cursor', typeof next === 'string' ? next : encodeCursor(next));
  ctx.set('Link', `<${url.pathname}${url.search}>; rel="next"`);
}
