import { randomUUID } from 'node:crypto';
import type { Task } from 'graphile-worker';
import { recoverMissedDeliveries, type RecoveryDeps } from '../core/github/recover-missed-deliveries.js';
import type { RecoveryGitHub, RecoveryStore } from '../core/github/recovery-port.js';

/** Between two GitHub calls of a sweep: at most a few requests a second, whatever the number of repositories. */
const SWEEP_PACE_MS = 250;

export type RecoveryTaskDeps = Omit<RecoveryDeps, 'github' | 'owner' | 'pace'> & {
  /** The App's calls, with the App in force when asked; null without App credentials: nothing to recover with. */
  github(): Promise<RecoveryGitHub | null>;
  recovery: RecoveryStore;
  intervalSeconds: number;
};

/**
 * github_delivery_recovery: one run of missed-delivery recovery, then the next one queued
 * (`SHIPGATE_DELIVERY_RECOVERY_SECONDS` later, one pending run under one job key). A run that
 * fails (GitHub down, rate limited) is logged and simply tried again at the next interval.
 */
export function githubDeliveryRecoveryTask(deps: RecoveryTaskDeps): Task {
  return async () => {
    const github = await deps.github();
    if (!github) return;
    try {
      const report = await recoverMissedDeliveries({
        ...deps,
        github,
        owner: randomUUID(),
        pace: () => new Promise((resolve) => setTimeout(resolve, SWEEP_PACE_MS)),
      });
      if (report.ran) deps.log('github_recovery_ran', { ...report, redelivered: report.redelivered.length });
    } catch (error) {
      deps.log('github_recovery_failed', { error: (error as Error).message });
    } finally {
      await deps.recovery.scheduleNext(new Date(Date.now() + deps.intervalSeconds * 1000));
    }
  };
}

/** At a worker's start, with App credentials: make sure a recovery run is queued (an existing one keeps its time). */
export async function ensureDeliveryRecovery(recovery: RecoveryStore, intervalSeconds: number): Promise<void> {
  await recovery.ensureScheduled(new Date(Date.now() + intervalSeconds * 1000));
}
