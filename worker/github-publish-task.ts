import type { Task } from 'graphile-worker';
import type { GitHubAppStore } from '../core/github/github-app-store.js';
import { createReleaseCheckPublisher, type PublishDeps } from '../core/github/publish-release-check.js';
import { PUBLISH_MAX_ATTEMPTS, retryDelaySeconds } from '../core/github/retry-delay.js';
import type { JobPayloads } from '../db/job-queue.js';

/**
 * github_publish: evaluate a commit and post its check run and comment. A GitHub 5xx or rate
 * limit re-queues the job for when GitHub said to come back (Retry-After), rather than failing it
 * into graphile-worker's fixed backoff; a 422 to a write was handled by the publisher (recorded,
 * never retried); anything else fails the job (retried with backoff).
 */
export function githubPublishTask(deps: PublishDeps & { app: GitHubAppStore }): Task {
  const publish = createReleaseCheckPublisher(deps);
  return async (payload) => {
    const job = payload as JobPayloads['github_publish'];
    const target = {
      repo_root: job.repo_root,
      commit_sha: job.commit_sha,
      installation_id: job.installation_id,
      delivery_id: job.delivery_id ?? null,
    };
    try {
      await publish(target);
    } catch (error) {
      const attempt = job.attempt + 1;
      const delay = retryDelaySeconds(error, attempt);
      if (delay === null) throw error;
      if (attempt >= PUBLISH_MAX_ATTEMPTS) {
        deps.log('github_publish_gave_up', { ...target, attempts: attempt, error: (error as Error).message });
        return;
      }
      deps.log('github_publish_retry', { ...target, attempt, delay_seconds: delay, error: (error as Error).message });
      await deps.app.schedulePublish(target, { delaySeconds: delay, attempt });
    }
  };
}
