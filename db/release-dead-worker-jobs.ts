import type { Knex } from 'knex';
import { sendSql } from './send-sql.js';
import { forceUnlockWorkers } from './job-queue.js';

export interface AbandonedJob {
  task: string;
  payload: unknown;
  attempts: number;
}

/**
 * graphile-worker leaves the jobs of a killed worker locked for four hours. Workers here beat
 * into worker_heartbeats (keyed by their pool id, which is what graphile-worker locks jobs
 * with); a pool silent for `staleSeconds` is dead, so its jobs are unlocked at once for any
 * live worker to retry. Jobs that already used their last attempt are removed and returned, so
 * the caller can close what they were working on.
 */
export async function releaseDeadWorkerJobs(db: Knex, staleSeconds: number): Promise<AbandonedJob[]> {
  return db.transaction(async (trx) => {
    const jobs = await sendSql<{ id: string; locked_by: string; attempts: number; exhausted: boolean; task: string; payload: unknown }>(
      trx,
      `SELECT j.id, j.locked_by, j.attempts, j.attempts >= j.max_attempts AS exhausted, t.identifier AS task, j.payload
       FROM graphile_worker._private_jobs j
       JOIN graphile_worker._private_tasks t ON t.id = j.task_id
       LEFT JOIN worker_heartbeats h ON h.worker_id = j.locked_by
       WHERE j.locked_by IS NOT NULL
         AND j.locked_at < now() - make_interval(secs => $1::float8)
         AND (h.seen_at IS NULL OR h.seen_at < now() - make_interval(secs => $1::float8))
       FOR UPDATE OF j SKIP LOCKED`,
      [staleSeconds],
    );
    if (jobs.length === 0) return [];
    await forceUnlockWorkers(trx, [...new Set(jobs.map((j) => j.locked_by))]);
    const exhausted = jobs.filter((j) => j.exhausted);
    if (exhausted.length > 0)
      await sendSql(trx, 'DELETE FROM graphile_worker._private_jobs WHERE id = ANY($1::bigint[])', [exhausted.map((j) => j.id)]);
    // Heartbeats of workers gone for a day only clutter the table.
    await trx('worker_heartbeats').where('seen_at', '<', trx.raw("now() - interval '1 day'")).delete();
    return exhausted.map((j) => ({ task: j.task, payload: j.payload, attempts: j.attempts }));
  });
}
