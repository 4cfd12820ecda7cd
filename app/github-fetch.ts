import { boundedFetch, type Fetch } from '../core/bounded-fetch.js';

/**
 * How long one exchange with GitHub's REST API may take, its answer read whole included: a GitHub
 * that accepts the connection and never answers held a job slot (and an API request waiting on it)
 * for five minutes, and four such calls stopped every job (docs/github-app.md, "How shipgate calls
 * GitHub"). Sign-in and App registration use the same bound on their own fetches.
 */
export const GITHUB_REQUEST_TIMEOUT_MS = 20_000;

/**
 * The largest answer read from GitHub's REST API. The largest shipgate asks for (a comparison of
 * 300 files with their patches, a page of 100 changed files, a 1 MB file's raw text) are a few
 * MiB; a 300 MB answer crashed the job worker and was logged whole.
 */
export const GITHUB_ANSWER_MAX_BYTES = 32 * 1024 * 1024;

/**
 * The fetch octokit sends shipgate's GitHub requests with (app/create-probot.ts): within `timeoutMs`
 * (answer read whole) and `maxBytes`, or it throws, which octokit reports as a request that got no
 * answer (app/github-errors.ts).
 */
export function boundedGitHubFetch(timeoutMs = GITHUB_REQUEST_TIMEOUT_MS, maxBytes = GITHUB_ANSWER_MAX_BYTES): Fetch {
  return boundedFetch(fetch, { timeoutMs, maxBytes, what: 'GitHub' });
}
