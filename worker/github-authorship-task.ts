import type { Task } from 'graphile-worker';
import { readPullRequestAuthorship, type AuthorshipDeps } from '../core/github/read-pull-request-authorship.js';
import type { JobPayloads } from '../db/job-queue.js';

/** github_authorship: read a pull request's authorship and reviews from GitHub, store them, evaluate its head. */
export function githubAuthorshipTask(deps: AuthorshipDeps): Task {
  return async (payload) => {
    const { attempt, ...target } = payload as JobPayloads['github_authorship'];
    await readPullRequestAuthorship(deps, target, attempt);
  };
}
