import { createHash } from 'node:crypto';
import { makeBadge } from 'badge-maker';
import { z } from 'zod';
import { BADGE_COLOURS, trustBadgeLevel, type BadgeLevel } from '../../core/release/badge-level.js';
import { defineRoute } from '../route.js';
import { badgeQuerySchema } from '../schemas/badge-schemas.js';

interface RenderedBadge {
  svg: string;
  etag: string;
}

/** The three possible badges, rendered once: the answer is a lookup plus a header comparison. */
const BADGES = Object.fromEntries(
  (Object.keys(BADGE_COLOURS) as BadgeLevel[]).map((level) => {
    const svg = makeBadge({ label: 'shipgate', message: level, color: BADGE_COLOURS[level] });
    return [level, { svg, etag: `"${createHash('sha256').update(svg).digest('hex').slice(0, 32)}"` }];
  }),
) as Record<BadgeLevel, RenderedBadge>;

function matches(ifNoneMatch: string, etag: string): boolean {
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag || tag.trim() === '*');
}

export const badgeRoutes = [
  defineRoute({
    method: 'get',
    path: '/trust/badge',
    tags: ['trust'],
    auth: 'public',
    summary: 'SVG trust badge for a commit (public)',
    description:
      '`Assured` (latest decision SHIP), `Blocked` (NO_SHIP, or the snapshot was rejected or revoked) or `Unknown` ' +
      '(no decision, unknown repository, or a gate with public_badge false). `commit` may be `HEAD` or a branch, resolved from refs ' +
      'recorded with evidence and check runs (`HEAD` falls back to main, then master). `Cache-Control: no-cache` with an ETag; If-None-Match answers 304.',
    query: badgeQuerySchema,
    responses: {
      200: {
        description: 'The badge.',
        contentType: 'image/svg+xml',
        schema: z.string().meta({ description: 'SVG' }),
        headers: { ETag: { description: 'Changes with the level.', schema: z.string() } },
      },
      304: { description: 'Not modified (If-None-Match matched).' },
    },
    async handler({ query, ctx, deps }) {
      const badge = BADGES[await trustBadgeLevel(deps.release.store, query.repo, query.commit)];
      const headers = { ETag: badge.etag, 'Cache-Control': 'no-cache' };
      if (matches(ctx.get('If-None-Match'), badge.etag)) return { status: 304, headers };
      ctx.type = 'image/svg+xml';
      return { status: 200, headers, body: badge.svg };
    },
  }),
];
