import type { Knex } from 'knex';
import type { RecoveryStore } from '../../core/github/recovery-port.js';
import { enqueueReplacing } from '../job-queue.js';

export const RECOVERY_JOB_KEY = 'github_delivery_recovery';

export function createRecoveryStore(db: Knex): RecoveryStore {
  return {
    async acquireLease(owner, seconds) {
      const { rows } = await db.raw(
        `UPDATE github_recovery SET lease_owner = ?, lease_until = now() + make_interval(secs => ?), last_run_at = now()
        WHERE id = 1 AND (lease_until IS NULL OR lease_until < now()) RETURNING newest_delivery_seen`,
        [owner, seconds],
      );
      const row = rows[0] as { newest_delivery_seen: string | null } | undefined;
      if (!row) return null;
      return { newest_delivery_seen: row.newest_delivery_seen === null ? null : Number(row.newest_delivery_seen) };
    },

    async releaseLease(owner, newestSeen) {
      await db.raw(
        `UPDATE github_recovery SET lease_owner = NULL, lease_until = NULL,
          newest_delivery_seen = greatest(newest_delivery_seen, ?::bigint)
        WHERE id = 1 AND lease_owner = ?`,
        [newestSeen, owner],
      );
      // GitHub redelivers only recent deliveries; older counts can go.
      await db.raw(`DELETE FROM github_redeliveries WHERE requested_at < now() - interval '7 days'`);
    },

    async claimed(guids) {
      if (guids.length === 0) return new Set();
      const rows = await db('github_deliveries').select('delivery_id').whereIn('delivery_id', guids);
      return new Set(rows.map((r: { delivery_id: string }) => r.delivery_id));
    },

    async countRedelivery(guid) {
      const { rows } = await db.raw(
        `INSERT INTO github_redeliveries (delivery_guid, attempts) VALUES (?, 1)
        ON CONFLICT (delivery_guid) DO UPDATE SET attempts = github_redeliveries.attempts + 1, requested_at = now()
        RETURNING attempts - 1 AS before`,
        [guid],
      );
      return Number(rows[0].before);
    },

    async scheduleNext(runAt) {
      await enqueueReplacing(db, 'github_delivery_recovery', {}, { jobKey: RECOVERY_JOB_KEY, runAt });
    },

    async ensureScheduled(runAt) {
      await db.raw(
        `SELECT graphile_worker.add_job('github_delivery_recovery', '{}'::json, run_at := ?::timestamptz, max_attempts := 1,
          job_key := ?::text, job_key_mode := 'preserve_run_at')`,
        [runAt.toISOString(), RECOVERY_JOB_KEY],
      );
    },
  };
}
