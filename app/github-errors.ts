import { GitHubRejectedError, GitHubRetryableError } from '../core/github/github-port.js';

interface OctokitErrorShape {
  status?: unknown;
  message?: unknown;
  request?: { method?: unknown; url?: unknown };
  response?: { headers?: Record<string, string | number | undefined>; data?: unknown };
}

/** Enough of GitHub's message to say what it refused, not a whole echoed body. */
const REJECTION_MESSAGE_MAX = 2_000;

export function statusOf(error: unknown): number | undefined {
  const status = (error as OctokitErrorShape | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

/**
 * What went wrong with a request to GitHub, for a person: GitHub's status and the first part of its
 * message; "did not answer" for a request octokit reports as a 500 with no answer (refused, timed
 * out, too large: app/github-fetch.ts); and, for an answer shipgate's code could not use (no
 * status: a TypeError on a malformed body), no internal error's text.
 */
export function githubFailureOf(error: unknown): string {
  const shape = (error ?? {}) as OctokitErrorShape;
  const status = statusOf(error);
  const said = String(shape.message ?? '')
    .split(' - ')[0]
    .slice(0, 200);
  if (status === undefined) return "GitHub's answer could not be read";
  return shape.response ? `GitHub answered ${status}: ${said}` : `GitHub did not answer (${said})`;
}

/** GitHub's error body: `message`, and for a 422 usually `errors` with each field's own message. */
function gitHubMessageOf(error: OctokitErrorShape): string {
  const data = error.response?.data as { message?: unknown; errors?: unknown } | string | undefined;
  if (typeof data === 'string') return data;
  const details = Array.isArray(data?.errors)
    ? data.errors.map((e: unknown) =>
        typeof e === 'string'
          ? e
          : typeof (e as { message?: unknown })?.message === 'string'
            ? (e as { message: string }).message
            : JSON.stringify(e),
      )
    : [];
  const message = typeof data?.message === 'string' ? data.message : String(error.message ?? '');
  return [message, ...details].join(': ').slice(0, REJECTION_MESSAGE_MAX);
}

function requestOf(error: OctokitErrorShape): string {
  const method = typeof error.request?.method === 'string' ? error.request.method : '?';
  const url = typeof error.request?.url === 'string' ? error.request.url : '';
  const path = URL.canParse(url) ? new URL(url).pathname : url;
  return `${method} ${path}`;
}

/**
 * Turns octokit's answers worth retrying (5xx; 429; 403 for a primary or secondary rate limit)
 * into GitHubRetryableError with the wait GitHub asked for. The refusals that the same request
 * would meet again (422 invalid; 403 that is no rate limit, such as a permission the App lacks;
 * 404, gone or out of the App's reach) become GitHubRejectedError with GitHub's message, never
 * retried (docs/github-app.md, "When GitHub refuses a write"); anything else stays as it is.
 */
export function asRetryable(error: unknown, now = Date.now()): unknown {
  const status = statusOf(error);
  if (status === undefined || error instanceof GitHubRejectedError) return error;
  const shape = error as OctokitErrorShape;
  const headers = shape.response?.headers ?? {};
  const retryAfter = headers['retry-after'] === undefined ? null : Number(headers['retry-after']);
  const exhausted = String(headers['x-ratelimit-remaining']) === '0';
  const rateLimited = status === 429 || (status === 403 && (retryAfter !== null || exhausted));
  if (status === 422 || status === 404 || (status === 403 && !rateLimited)) {
    return new GitHubRejectedError({ request: requestOf(shape), status, message: gitHubMessageOf(shape) });
  }
  const reset = headers['x-ratelimit-reset'] === undefined ? null : Number(headers['x-ratelimit-reset']);
  const message = githubFailureOf(error);
  if (status >= 500) return new GitHubRetryableError(message, status, Number.isFinite(retryAfter) ? retryAfter : null);
  if (!rateLimited) return error;
  const wait =
    retryAfter !== null && Number.isFinite(retryAfter)
      ? retryAfter
      : reset !== null && Number.isFinite(reset)
        ? Math.max(1, Math.ceil(reset - now / 1000))
        : null;
  return new GitHubRetryableError(message, status, wait);
}
