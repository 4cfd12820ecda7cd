import { GitHubRetryableError } from './github-port.js';

/** Attempts at posting one commit's decision before it is given up (logged). */
export const PUBLISH_MAX_ATTEMPTS = 8;
const MAX_BACKOFF_SECONDS = 600;

/**
 * How long to wait before trying again after a GitHub answer worth retrying: what GitHub asked for
 * (Retry-After or the rate-limit reset), else exponential backoff from 2 s. null: not retryable.
 */
export function retryDelaySeconds(error: unknown, attempt: number): number | null {
  if (!(error instanceof GitHubRetryableError)) return null;
  if (error.retryAfterSeconds !== null) return Math.min(Math.max(error.retryAfterSeconds, 1), MAX_BACKOFF_SECONDS * 6);
  return Math.min(2 ** Math.max(attempt, 1), MAX_BACKOFF_SECONDS);
}
