import type { Knex } from 'knex';
import type { RecoveryStore } from '../../../core/github/recovery-port.js';
import { enqueueReplacing } from '../../job-queue.js';
import { sendSql } from '../../send-sql.js';

export const RECOVERY_JOB_KEY = 'github_delivery_recovery';

export function createRecoveryStore(db: Knex): RecoveryStore {
  return {
    async acquireLease(owner, seconds) {
      const [row] = await sendSql<{ newest_delivery_seen: string | null }>(
        db,
        `UPDATE github_recovery SET lease_owner = $1, lease_until = now() + make_interval(secs => $2::float8), last_run_at = now()
        WHERE id = 1 AND (lease_until IS NULL OR lease_until < now()) RETURNING newest_delivery_seen`,
        [owner, seconds],
      );
      if (!row) return null;
      return { newest_delivery_seen: row.newest_delivery_seen === null ? null : Number(row.newest_delivery_seen) };
    },

    async releaseLease(owner, newestSeen) {
      await sendSql(
        db,
        `UPDATE github_recovery SET lease_owner = NULL, lease_until = NULL,
          newest_delivery_seen = greatest(newest_delivery_seen, $1::bigint)
        WHERE id = 1 AND lease_owner = $2`,
        [newestSeen, owner],
      );
      // GitHub redelivers only recent deliveries; older counts can go.
      await sendSql(db, `DELETE FROM github_redeliveries WHERE requested_at < now() - interval '7 days'`);
    },

    async claimed(guids) {
      if (guids.length === 0) return new Set();
      const rows = await db('github_deliveries').select('delivery_id').whereIn('delivery_id', guids);
      return new Set(rows.map((r: { delivery_id: string }) => r.delivery_id));
    },

    async countRedelivery(guid) {
      const [row] = await sendSql<{ before: number }>(
        db,
        `INSERT INTO github_redeliveries (delivery_guid, attempts) VALUES ($1, 1)
        ON CONFLICT (delivery_guid) DO UPDATE SET attempts = github_redeliveries.attempts + 1, requested_at = now()
        RETURNING attempts - 1 AS before`,
        [guid],
      );
      return Number(row.before);
    },

    async scheduleNext(runAt) {
      await enqueueReplacing(db, 'github_delivery_recovery', {}, { jobKey: RECOVERY_JOB_KEY, runAt });
    },

    async ensureScheduled(runAt) {
      await sendSql(
        db,
        `SELECT graphile_worker.add_job('github_delivery_recovery', '{}'::json, run_at := $1::timestamptz, max_attempts := 1,
          job_key := $2::text, job_key_mode := 'preserve_run_at')`,
        [runAt.toISOString(), RECOVERY_JOB_KEY],
      );
    },
  };
}
