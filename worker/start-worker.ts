import { EventEmitter } from 'node:events';
import { run, type Runner, type TaskList, type WorkerEvents } from 'graphile-worker';
import type { RuntimeDeps } from '../core/agent/runtime-deps.js';
import { giveUp } from '../core/executions/run-execution-job.js';
import { forceUnlockWorkers, workerLogger } from '../db/job-queue.js';
import { pruneExpiredCounters } from '../db/prune-expired-counters.js';
import { releaseDeadWorkerJobs } from '../db/release-dead-worker-jobs.js';
import { createWorkerHeartbeatStore } from '../db/stores/worker-heartbeat-store.js';
import { buildRuntimeDeps } from './build-runtime-deps.js';
import { executionIdOf } from './run-execution-task.js';
import { workflowIdOf } from './run-workflow-task.js';
import { giveUpWorkflow } from '../core/workflows/run-workflow-job.js';
import { buildTaskList } from './task-list.js';
import type { WorkerDeps } from './worker-deps.js';

export interface RunningWorker {
  /** The id graphile-worker locks jobs with; also the heartbeat's worker_id. */
  id: string;
  /** Stops taking jobs; runs still going after a few seconds are handed back to the queue (they resume elsewhere). */
  stop(): Promise<void>;
}

export interface WorkerOptions {
  /** Extra tasks (other resources' jobs) to run beside run_execution. */
  tasks?: TaskList;
  /** Replaces the runtime deps built from `deps` (tests). */
  runtime?: RuntimeDeps;
}

/** Expired rate-limit windows, login failures and old heartbeats are deleted at most this often. */
const PRUNE_EVERY_MS = 60_000;

/** A worker silent for this many heartbeats is presumed dead and its jobs are retried elsewhere. */
const MISSED_BEATS_BEFORE_DEAD = 4;

/**
 * Runs queued jobs (graphile-worker) in this process: concurrency from config, a heartbeat
 * every SHIPGATE_WORKER_HEARTBEAT_SECONDS, and on each beat the jobs of dead workers are
 * unlocked so they are retried (and resumed) here or elsewhere; expired counters are pruned.
 */
export async function startWorker(deps: WorkerDeps, databaseUrl: string, options: WorkerOptions = {}): Promise<RunningWorker> {
  const { config, db, logger } = deps;
  const runtime = options.runtime ?? buildRuntimeDeps(deps);
  const heartbeats = createWorkerHeartbeatStore(db);
  const events: WorkerEvents = new EventEmitter();
  let poolId: string | undefined;
  events.on('pool:create', ({ workerPool }) => {
    poolId = workerPool.id;
  });
  const runner: Runner = await run({
    connectionString: databaseUrl,
    concurrency: config.worker.concurrency,
    noHandleSignals: true,
    pollInterval: 1000,
    logger: workerLogger(logger),
    events,
    parsedCronItems: [],
    taskList: { ...options.tasks, ...buildTaskList(runtime, deps) },
  });
  if (!poolId) {
    await runner.stop();
    throw new Error('graphile-worker did not report its pool id; heartbeats need it.');
  }
  const id = poolId;
  const periodMs = config.worker.heartbeatSeconds * 1000;
  const staleSeconds = config.worker.heartbeatSeconds * MISSED_BEATS_BEFORE_DEAD;

  let prunedAt = 0;
  async function beat(): Promise<void> {
    await heartbeats.beat(id);
    for (const job of await releaseDeadWorkerJobs(db, staleSeconds)) {
      if (job.task === 'run_execution') await giveUp(runtime.journal, executionIdOf(job.payload), job.attempts);
      if (job.task === 'run_workflow') {
        const executionId = await giveUpWorkflow(deps.workflows, workflowIdOf(job.payload));
        if (executionId) await giveUp(runtime.journal, executionId, job.attempts);
      }
    }
    if (Date.now() - prunedAt >= PRUNE_EVERY_MS) {
      prunedAt = Date.now();
      await pruneExpiredCounters(db);
    }
  }
  let beating = Promise.resolve();
  const tick = () => (beating = beat().catch((error: unknown) => logger.warn({ err: error, worker_id: id }, 'worker heartbeat failed')));
  await tick();
  const timer = setInterval(tick, periodMs);
  logger.info({ worker_id: id, concurrency: config.worker.concurrency }, 'worker started');

  return {
    id,
    async stop() {
      clearInterval(timer);
      await beating;
      await runner.stop();
      // Whatever this pool still holds goes straight back to the queue for another worker to resume.
      await forceUnlockWorkers(db, [id]);
      logger.info({ worker_id: id }, 'worker stopped');
    },
  };
}
