import type { Knex } from 'knex';
import type { RateLimiter } from '../../../core/accounts/rate-limiter.js';
import { sendSql } from '../../send-sql.js';

const RATE_LIMIT_HIT = {
  name: 'rate_limit_hit',
  text: `INSERT INTO rate_limits (bucket, window_start, count)
    VALUES ($1, to_timestamp(floor(extract(epoch FROM now()) / $2::int) * $2::int), 1)
    ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_limits.count + 1
    RETURNING count, ceil(extract(epoch FROM window_start + make_interval(secs => $2::int) - now()))::int AS retry`,
};

/** Fixed-window counters in PostgreSQL, so limits hold across replicas. */
export function createRateLimiter(db: Knex): RateLimiter {
  return {
    async hit(bucket, limit, windowSeconds) {
      // Named: every authenticated request sends it.
      const [row] = await sendSql<{ count: number; retry: number }>(db, RATE_LIMIT_HIT, [bucket, windowSeconds]);
      return row.count > limit ? Math.max(1, row.retry) : 0;
    },
  };
}
