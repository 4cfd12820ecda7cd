import { Logger as WorkerLogger, runMigrations, type LogFunctionFactory } from 'graphile-worker';
import type { Knex } from 'knex';
import { sendSql } from './send-sql.js';
import type { Logger } from 'pino';
import type { DeliveryIntent } from '../core/github/delivery-intent.js';
import type { PublishTarget } from '../core/github/github-app-store.js';
import type { AuthorshipReadTarget } from '../core/github/authorship-store.js';
import { databaseOutage } from './database-outage.js';

/** The jobs this service queues, with their payloads. */
export interface JobPayloads {
  run_execution: { execution_id: string };
  /** A claimed GitHub webhook delivery's work (records what it reports, schedules evaluations). */
  github_delivery: { delivery_id: string; received_at: string; intent: DeliveryIntent };
  /** Evaluate a commit and post its check run and comment; `attempt` counts GitHub answers worth retrying. */
  github_publish: PublishTarget & { attempt: number };
  run_workflow: { workflow_id: string };
  /** Evaluate a deployment protection request and answer it once decided; `attempt` counts GitHub answers worth retrying. */
  github_deployment_review: { request_id: string; attempt: number };
  /** Missed-delivery recovery (periodic, one runner at a time): redeliver lost deliveries, sweep open pull requests. */
  github_delivery_recovery: Record<string, never>;
  /** Read a pull request's authorship (commits, reviews, permissions) for the decision's agent rules; `attempt` counts GitHub answers worth retrying. */
  github_authorship: AuthorshipReadTarget & { attempt: number };
  /** Ends agent sessions past their expiry (graphile-worker's cron, every minute; its payload is the cron's `_cron`). */
  mcp_session_expiry: Record<string, unknown>;
  /** Re-post the check runs of the open pull requests an agent session may have covered, once what it covers shrank. */
  github_session_recheck: { session_id: string };
}

/** Attempts before a job is given up; a killed worker's job counts one attempt. */
export const JOB_MAX_ATTEMPTS = 5;

const MIGRATION_LOCK = 7_140_004;

/** The error a graphile-worker log line is about, if it names one. */
function errorOf(message: string, meta: unknown): unknown {
  const m = meta as { error?: unknown; fatalError?: unknown } | undefined;
  return m?.error ?? m?.fatalError ?? new Error(message);
}

/**
 * Routes graphile-worker's own log lines into pino, so one stream holds every line. Its
 * complaints that the database is unreachable (a failed poll, a lost LISTEN connection, a job
 * it could not release) go to the outage tracker, which logs one line per 10 s for all of them.
 */
export function workerLogger(logger: Logger): WorkerLogger {
  const outage = databaseOutage(logger);
  const factory: LogFunctionFactory = (scope) => (level, message, meta) => {
    const fields = { queue: scope.label, worker_id: scope.workerId, task: scope.taskIdentifier, job_id: scope.jobId };
    let method: 'error' | 'warn' | 'info' | 'debug' =
      level === 'error' ? 'error' : level === 'warning' ? 'warn' : level === 'info' ? 'info' : 'debug';
    if ((method === 'error' || method === 'warn') && outage.report(errorOf(message, meta), 'background')) method = 'debug';
    logger[method](fields, message);
  };
  return new WorkerLogger(factory);
}

/**
 * Applies graphile-worker's migrations (its own `graphile_worker` schema). Serialised with an
 * advisory lock so replicas starting together do not race each other.
 */
export async function migrateJobQueue(db: Knex, connectionString: string, logger?: Logger): Promise<void> {
  await db.transaction(async (trx) => {
    await sendSql(trx, 'SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await runMigrations({ connectionString, logger: logger ? workerLogger(logger) : undefined });
  });
}

/**
 * Queues a job, inside the caller's transaction when `db` is one, so a record and the job
 * that works on it commit together. `jobKey` deduplicates: a second job with the same key is
 * not added while the first exists.
 */
export async function enqueue<T extends keyof JobPayloads>(db: Knex, task: T, payload: JobPayloads[T], jobKey?: string): Promise<void> {
  await sendSql(
    db,
    `SELECT graphile_worker.add_job($1::text, $2::json, max_attempts := $3::int, job_key := $4::text, job_key_mode := 'unsafe_dedupe')`,
    [task, JSON.stringify(payload), JOB_MAX_ATTEMPTS, jobKey ?? null],
  );
}

/**
 * Queues several jobs of one task with one call (graphile-worker's add_jobs), inside the
 * caller's transaction when `db` is one: one statement and one wake-up notification for all.
 */
export async function enqueueMany<T extends keyof JobPayloads>(db: Knex, task: T, payloads: JobPayloads[T][]): Promise<void> {
  if (payloads.length === 0) return;
  await sendSql(
    db,
    `SELECT count(*) FROM graphile_worker.add_jobs(ARRAY(
      SELECT ROW($1::text, payload::json, NULL, NULL, $3::smallint, NULL, NULL, NULL)::graphile_worker.job_spec FROM unnest($2::text[]) AS payload))`,
    [task, payloads.map((payload) => JSON.stringify(payload)), JOB_MAX_ATTEMPTS],
  );
}

export interface JobOptions {
  /** A job with this key not yet started is replaced (its payload and run time), so work coalesces. */
  jobKey: string;
  /** Jobs of one named queue run one at a time, in order. */
  queueName?: string;
  runAt?: Date;
  maxAttempts?: number;
}

/**
 * Queues a job that replaces a pending one with the same key (graphile-worker's `replace` mode):
 * while that job runs, a second one is queued behind it, so nothing asked for meanwhile is lost.
 */
export async function enqueueReplacing<T extends keyof JobPayloads>(
  db: Knex,
  task: T,
  payload: JobPayloads[T],
  options: JobOptions,
): Promise<void> {
  await sendSql(
    db,
    `SELECT graphile_worker.add_job($1::text, $2::json, queue_name := $3::text, run_at := $4::timestamptz, max_attempts := $5::int,
      job_key := $6::text, job_key_mode := 'replace')`,
    [
      task,
      JSON.stringify(payload),
      options.queueName ?? null,
      // null: now() by the database's clock (a JS clock a little ahead would leave the job for the next poll).
      options.runAt?.toISOString() ?? null,
      options.maxAttempts ?? JOB_MAX_ATTEMPTS,
      options.jobKey,
    ],
  );
}

/**
 * Unlocks every job the given worker pools hold, at once and without counting a failure:
 * for pools known to be dead, or for this process's own pool once it stopped (graphile-worker
 * 0.17 can end its pool before recording a job handed back during shutdown).
 */
export async function forceUnlockWorkers(db: Knex, workerIds: string[]): Promise<void> {
  if (workerIds.length > 0) await sendSql(db, 'SELECT graphile_worker.force_unlock_workers($1::text[])', [workerIds]);
}
