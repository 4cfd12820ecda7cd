import { GitHubRetryableError } from '../core/github/github-port.js';

interface OctokitErrorShape {
  status?: unknown;
  message?: unknown;
  response?: { headers?: Record<string, string | number | undefined> };
}

export function statusOf(error: unknown): number | undefined {
  const status = (error as OctokitErrorShape | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

/**
 * Turns octokit's answers worth retrying (5xx; 429; 403 for a primary or secondary rate limit)
 * into GitHubRetryableError with the wait GitHub asked for; anything else as it is.
 */
export function asRetryable(error: unknown, now = Date.now()): unknown {
  const status = statusOf(error);
  if (status === undefined) return error;
  const headers = (error as OctokitErrorShape).response?.headers ?? {};
  const retryAfter = headers['retry-after'] === undefined ? null : Number(headers['retry-after']);
  const exhausted = String(headers['x-ratelimit-remaining']) === '0';
  const reset = headers['x-ratelimit-reset'] === undefined ? null : Number(headers['x-ratelimit-reset']);
  const message = `GitHub answered ${status}: ${String((error as OctokitErrorShape).message ?? '').split(' - ')[0]}`;
  if (status >= 500) return new GitHubRetryableError(message, status, Number.isFinite(retryAfter) ? retryAfter : null);
  const rateLimited = status === 429 || (status === 403 && (retryAfter !== null || exhausted));
  if (!rateLimited) return error;
  const wait =
    retryAfter !== null && Number.isFinite(retryAfter)
      ? retryAfter
      : reset !== null && Number.isFinite(reset)
        ? Math.max(1, Math.ceil(reset - now / 1000))
        : null;
  return new GitHubRetryableError(message, status, wait);
}
