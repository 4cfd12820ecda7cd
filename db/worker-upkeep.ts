import type { Logger as WorkerLogger } from 'graphile-worker';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { databaseOutage, type DatabaseOutage } from './database-outage.js';
import { forceUnlockWorkers, workerLogger } from './job-queue.js';
import { pruneEvidenceDocuments } from './prune-evidence-documents.js';
import { pruneExpiredCounters } from './prune-expired-counters.js';
import { releaseDeadWorkerJobs, type AbandonedJob } from './release-dead-worker-jobs.js';
import { createWorkerHeartbeatStore } from './stores/release/worker-heartbeats.js';

/**
 * What a job worker's supervision does in the database besides running jobs (ARCHITECTURE.md,
 * "How a job flows"): its heartbeat, handing back the jobs of dead pools, and pruning. Built once
 * by the composition root, so worker/ reaches no Knex.
 */
export interface WorkerUpkeep {
  /** graphile-worker's own log lines, into pino; its complaints about an unreachable database to the outage tracker. */
  readonly workerLogger: WorkerLogger;
  /** This process's outage tracker (db/database-outage.ts). */
  readonly outage: DatabaseOutage;
  beat(workerId: string): Promise<void>;
  /** Unlocks the jobs of pools silent for `staleSeconds`; answers those that used their last attempt (removed). */
  releaseDeadWorkerJobs(staleSeconds: number): Promise<AbandonedJob[]>;
  /** Hands the jobs these pools hold back to the queue. */
  forceUnlockWorkers(workerIds: string[]): Promise<void>;
  pruneExpiredCounters(): Promise<void>;
  /** Deletes the evidence documents nothing needs any more; answers how many. */
  pruneEvidenceDocuments(): Promise<number>;
}

export function createWorkerUpkeep(db: Knex, logger: Logger): WorkerUpkeep {
  const heartbeats = createWorkerHeartbeatStore(db);
  return {
    workerLogger: workerLogger(logger),
    outage: databaseOutage(logger),
    beat: (workerId) => heartbeats.beat(workerId),
    releaseDeadWorkerJobs: (staleSeconds) => releaseDeadWorkerJobs(db, staleSeconds),
    forceUnlockWorkers: (workerIds) => forceUnlockWorkers(db, workerIds),
    pruneExpiredCounters: () => pruneExpiredCounters(db),
    pruneEvidenceDocuments: () => pruneEvidenceDocuments(db),
  };
}
