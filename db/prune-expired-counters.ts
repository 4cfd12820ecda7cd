import type { Knex } from 'knex';
import { sendSql } from './send-sql.js';

/** How long each kind of bookkeeping row is kept; each is only ever read within a shorter window. */
export const RETENTION = {
  rateLimitWindows: '1 hour', // windows are one minute long
  loginFailures: '1 day', // the login throttle looks back as far (LOGIN_THROTTLE.windowSeconds)
  workerHeartbeats: '7 days', // a worker silent this long is long dead; its row only said so
  githubDeliveries: '30 days', // GitHub lists (and redelivers) deliveries of the last few days only
} as const;

/**
 * Deletes expired rate-limit windows, login failures, GitHub delivery claims and heartbeats of
 * long-gone workers, in one statement. The tables would otherwise grow with every key, e-mail and worker ever seen.
 */
export async function pruneExpiredCounters(db: Knex): Promise<void> {
  await sendSql(
    db,
    `WITH windows AS (DELETE FROM rate_limits WHERE window_start < now() - $1::interval),
          failures AS (DELETE FROM login_failures WHERE failed_at < now() - $2::interval),
          deliveries AS (DELETE FROM github_deliveries WHERE received_at < now() - $3::interval)
     DELETE FROM worker_heartbeats WHERE seen_at < now() - $4::interval`,
    [RETENTION.rateLimitWindows, RETENTION.loginFailures, RETENTION.githubDeliveries, RETENTION.workerHeartbeats],
  );
}
