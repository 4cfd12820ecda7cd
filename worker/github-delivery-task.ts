import type { Task } from 'graphile-worker';
import { handleDelivery, type DeliveryDeps } from '../core/github/handle-delivery.js';
import type { JobPayloads } from '../db/job-queue.js';

/** github_delivery: the work of one claimed webhook delivery (records evidence, schedules evaluations). */
export function githubDeliveryTask(deps: DeliveryDeps): Task {
  return async (payload) => {
    const job = payload as JobPayloads['github_delivery'];
    await handleDelivery(deps, job.delivery_id, job.intent, new Date(job.received_at));
  };
}
