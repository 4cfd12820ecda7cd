import type { Task } from 'graphile-worker';
import { ValidationError } from '../core/errors.js';
import { deliveryFailureReason, type DeliveryLog } from '../core/github/delivery-log.js';
import { handleDelivery, type DeliveryDeps } from '../core/github/handle-delivery.js';
import type { JobPayloads } from '../db/job-queue.js';

/**
 * github_delivery: the work of one claimed webhook delivery (records evidence, schedules
 * evaluations), then how it ended on the delivery's row for the deliveries page: processed, or the
 * failed attempt's reason (failed on the last attempt, else still queued for the retry; docs/github-app.md,
 * "When the check didn't show up"). One statement per attempt, after the work.
 */
export function githubDeliveryTask(deps: DeliveryDeps & { deliveries: DeliveryLog }): Task {
  return async (payload, helpers) => {
    const job = payload as JobPayloads['github_delivery'];
    const startedAt = new Date();
    const attempt = helpers.job.attempts;
    try {
      await handleDelivery(deps, job.delivery_id, job.intent, new Date(job.received_at));
    } catch (error) {
      // A value the delivery holds that cannot be stored or is refused (a PR number past PostgreSQL's
      // integer, a year 99999, a 10 MB check run name) fails every attempt alike: failed at once, not retried.
      const refused = error instanceof ValidationError;
      const final = refused || attempt >= helpers.job.max_attempts;
      await deps.deliveries
        .recordFailure(job.delivery_id, startedAt, attempt, deliveryFailureReason(error), final)
        .catch((recording: unknown) =>
          deps.log('github_delivery_outcome_unrecorded', { delivery_id: job.delivery_id, error: String(recording) }),
        );
      if (!refused) throw error;
      deps.log('github_delivery_refused', { delivery_id: job.delivery_id, reason: deliveryFailureReason(error) });
      return;
    }
    await deps.deliveries.recordProcessed(job.delivery_id, startedAt, attempt);
  };
}
