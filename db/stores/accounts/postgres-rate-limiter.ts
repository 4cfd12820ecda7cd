import type { Knex } from 'knex';
import { retryAfterHit, type RateLimiter } from '../../../core/accounts/rate-limiter.js';
import { sendSql } from '../../send-sql.js';

/**
 * Counts one hit on bucket `bucket` in the fixed window of `window` seconds it falls in, for each
 * row `from` gives (none: one hit), answering the count and the seconds left in the window. A
 * statement that reads something else may count its request with it (the MCP endpoint's:
 * db/stores/mcp/postgres-mcp-session-store.ts).
 */
export const countHit = (bucket: string, window: string, from = '') => `INSERT INTO rate_limits (bucket, window_start, count)
    SELECT ${bucket}, to_timestamp(floor(extract(epoch FROM now()) / ${window}::int) * ${window}::int), 1 ${from}
    ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_limits.count + 1
    RETURNING count, ceil(extract(epoch FROM window_start + make_interval(secs => ${window}::int) - now()))::int AS retry`;

const RATE_LIMIT_HIT = { name: 'rate_limit_hit', text: countHit('$1', '$2') };

/** Fixed-window counters in PostgreSQL, so limits hold across replicas. */
export function createRateLimiter(db: Knex): RateLimiter {
  return {
    async hit(bucket, limit, windowSeconds) {
      // Named: every authenticated request sends it.
      const [row] = await sendSql<{ count: number; retry: number }>(db, RATE_LIMIT_HIT, [bucket, windowSeconds]);
      return retryAfterHit(row.count, row.retry, limit);
    },
  };
}
