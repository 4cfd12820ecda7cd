import type { Task } from 'graphile-worker';
import { reviewDeployment, type DeploymentDeps } from '../core/github/review-deployment.js';
import { PUBLISH_MAX_ATTEMPTS, retryDelaySeconds } from '../core/github/retry-delay.js';
import type { JobPayloads } from '../db/job-queue.js';

/**
 * github_deployment_review: evaluate a deployment protection request and answer it once decided.
 * A GitHub 5xx or rate limit leaves the request waiting and comes back when GitHub said to.
 */
export function githubDeploymentReviewTask(deps: DeploymentDeps): Task {
  return async (payload) => {
    const job = payload as JobPayloads['github_deployment_review'];
    try {
      await reviewDeployment(deps, job.request_id);
    } catch (error) {
      const attempt = job.attempt + 1;
      const delay = retryDelaySeconds(error, attempt);
      if (delay === null) throw error;
      if (attempt >= PUBLISH_MAX_ATTEMPTS) throw error;
      deps.log('github_deployment_retry', { request_id: job.request_id, attempt, delay_seconds: delay, error: (error as Error).message });
      await deps.deployments.scheduleReview(job.request_id, { runAt: new Date(Date.now() + delay * 1000), attempt });
    }
  };
}
