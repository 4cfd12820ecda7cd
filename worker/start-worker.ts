import { EventEmitter } from 'node:events';
import { parseCronItems, run, type Runner, type TaskList, type WorkerEvents } from 'graphile-worker';
import type { RuntimeDeps } from '../core/agent/runtime-deps.js';
import { giveUp } from '../core/executions/run-execution-job.js';
import { buildRuntimeDeps } from './build-runtime-deps.js';
import { executionIdOf } from './run-execution-task.js';
import { workflowIdOf } from './run-workflow-task.js';
import { giveUpWorkflow } from '../core/workflows/run-workflow-job.js';
import { buildTaskList } from './task-list.js';
import { MCP_SESSION_EXPIRY_CRON } from './mcp-session-expiry-task.js';
import { ensureDeliveryRecovery } from './github-delivery-recovery-task.js';
import type { WorkerDeps } from './worker-deps.js';

export interface RunningWorker {
  /** The id graphile-worker locks jobs with (of the current pool); also the heartbeat's worker_id. */
  readonly id: string;
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
/** Evidence documents: each run checks every document older than its grace, so hourly (docs/release-gate.md). */
const PRUNE_DOCUMENTS_EVERY_MS = 3_600_000;

/** While the database is away, a stopped job worker checks this often whether it can start again. */
const RESTART_POLL_MS = 1000;

/** A worker silent for this many heartbeats is presumed dead and its jobs are retried elsewhere. */
const MISSED_BEATS_BEFORE_DEAD = 4;

/**
 * Runs queued jobs (graphile-worker) in this process: concurrency from config, a heartbeat
 * every SHIPGATE_WORKER_HEARTBEAT_SECONDS, and on each beat the jobs of dead workers are
 * unlocked so they are retried (and resumed) here or elsewhere; expired counters and evidence documents nothing needs are pruned.
 */
export async function startWorker(deps: WorkerDeps, databaseUrl: string, options: WorkerOptions = {}): Promise<RunningWorker> {
  const { config, logger, upkeep } = deps;
  const runtime = options.runtime ?? buildRuntimeDeps(deps);
  const { outage } = upkeep;
  const taskList = { ...options.tasks, ...buildTaskList(runtime, deps) };

  async function startRunner(): Promise<{ runner: Runner; id: string }> {
    const events: WorkerEvents = new EventEmitter();
    let poolId: string | undefined;
    events.on('pool:create', ({ workerPool }) => {
      poolId = workerPool.id;
    });
    const runner = await run({
      connectionString: databaseUrl,
      concurrency: config.worker.concurrency,
      noHandleSignals: true,
      pollInterval: 1000,
      logger: upkeep.workerLogger,
      events,
      // Periodic jobs on graphile-worker's cron (one job per tick across every worker).
      parsedCronItems: parseCronItems([MCP_SESSION_EXPIRY_CRON]),
      taskList,
      // Completing or failing a job goes through graphile-worker's batcher, which reports a
      // database error to the pool (which then stops, and is restarted below) instead of
      // leaving an unhandled rejection that would end the process.
      // Jobs are fetched (and locked) by the pool, up to one more than run at once, in one query
      // and one commit, instead of one query and one durable commit per job: a burst of webhook
      // deliveries is processed with fewer WAL flushes, which the acknowledgements of the deliveries still
      // arriving wait for too (docs/benchmarks.md). At most one job waits locked here that
      // another worker process could have run; a stopping pool hands it back.
      preset: {
        worker: {
          completeJobBatchDelay: 0,
          failJobBatchDelay: 0,
          localQueue: { size: config.worker.concurrency + 1 },
        },
      },
    });
    if (!poolId) {
      await runner.stop();
      throw new Error('graphile-worker did not report its pool id; heartbeats need it.');
    }
    return { runner, id: poolId };
  }

  let current = await startRunner();
  // With App credentials, missed-delivery recovery runs every SHIPGATE_DELIVERY_RECOVERY_SECONDS.
  if (config.github.appId && (config.github.privateKey || config.github.privateKeyPath)) {
    await ensureDeliveryRecovery(deps.recovery, config.github.deliveryRecoverySeconds);
  }
  let stopping = false;
  let restarting: Promise<void> = Promise.resolve();

  /**
   * graphile-worker stops its pool when it cannot record a job's outcome (the database went
   * away). Once the database answers again, the dead pool's jobs go back to the queue (their
   * runs resume from the journal) and a new pool takes over.
   */
  function supervise(started: { runner: Runner; id: string }): void {
    const ended = () => {
      if (!stopping) restarting = restart(started.id);
    };
    void started.runner.promise.then(ended, ended);
  }
  async function restart(deadId: string): Promise<void> {
    logger.warn({ worker_id: deadId }, 'job worker pool stopped; a new one starts once the database answers');
    while (!stopping) {
      try {
        await upkeep.forceUnlockWorkers([deadId]);
        current = await startRunner();
        supervise(current);
        logger.info({ worker_id: current.id, replaces: deadId }, 'worker restarted');
        return;
      } catch (error) {
        if (!outage.report(error, 'background')) logger.warn({ err: error, worker_id: deadId }, 'worker restart failed');
        await new Promise((resolve) => setTimeout(resolve, RESTART_POLL_MS));
      }
    }
  }
  supervise(current);

  const periodMs = config.worker.heartbeatSeconds * 1000;
  const staleSeconds = config.worker.heartbeatSeconds * MISSED_BEATS_BEFORE_DEAD;
  let prunedAt = 0;
  let documentsPrunedAt = 0;
  async function beat(): Promise<void> {
    await upkeep.beat(current.id);
    for (const job of await upkeep.releaseDeadWorkerJobs(staleSeconds)) {
      if (job.task === 'run_execution') await giveUp(runtime.journal, executionIdOf(job.payload), job.attempts);
      if (job.task === 'run_workflow') {
        const executionId = await giveUpWorkflow(deps.workflows, workflowIdOf(job.payload));
        if (executionId) await giveUp(runtime.journal, executionId, job.attempts);
      }
    }
    if (Date.now() - prunedAt >= PRUNE_EVERY_MS) {
      prunedAt = Date.now();
      await upkeep.pruneExpiredCounters();
    }
    if (Date.now() - documentsPrunedAt >= PRUNE_DOCUMENTS_EVERY_MS) {
      documentsPrunedAt = Date.now();
      await upkeep.pruneEvidenceDocuments();
    }
  }
  const failed = (what: string) => (error: unknown) => {
    if (!outage.report(error, 'background')) logger.warn({ err: error, worker_id: current.id }, what);
  };
  let beating = Promise.resolve();
  const tick = () => (beating = beat().catch(failed('worker heartbeat failed')));
  await tick();
  const timer = setInterval(tick, periodMs);
  logger.info({ worker_id: current.id, concurrency: config.worker.concurrency }, 'worker started');

  return {
    get id() {
      return current.id;
    },
    async stop() {
      stopping = true;
      clearInterval(timer);
      await beating;
      await restarting;
      await current.runner.stop().catch(() => {}); // already stopped when the database went away
      // Whatever this pool still holds goes straight back to the queue for another worker to resume.
      await upkeep.forceUnlockWorkers([current.id]).catch(failed('could not hand jobs back'));
      logger.info({ worker_id: current.id }, 'worker stopped');
    },
  };
}
