import type { Knex } from 'knex';

export interface RateLimiter {
  /** Counts one hit on `bucket`; returns seconds to wait when over `limit` per `windowSeconds`, else 0. */
  hit(bucket: string, limit: number, windowSeconds: number): Promise<number>;
}

/** Fixed-window counters in PostgreSQL, so limits hold across replicas. */
export function createRateLimiter(db: Knex): RateLimiter {
  return {
    async hit(bucket, limit, windowSeconds) {
      const { rows } = await db.raw(
        `INSERT INTO rate_limits (bucket, window_start, count)
         VALUES (?, to_timestamp(floor(extract(epoch FROM now()) / ?) * ?), 1)
         ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_limits.count + 1
         RETURNING count, ceil(extract(epoch FROM window_start + make_interval(secs => ?) - now()))::int AS retry`,
        [bucket, windowSeconds, windowSeconds, windowSeconds],
      );
      const row = rows[0] as { count: number; retry: number };
      return row.count > limit ? Math.max(1, row.retry) : 0;
    },
  };
}
