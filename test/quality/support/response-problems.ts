import type { Response } from 'supertest';

function isIssue(item: unknown): boolean {
  const issue = item as { loc?: unknown; msg?: unknown; type?: unknown };
  return (
    typeof issue === 'object' &&
    issue !== null &&
    Object.keys(issue).sort().join() === 'loc,msg,type' &&
    Array.isArray(issue.loc) &&
    issue.loc.every((p) => typeof p === 'string' || typeof p === 'number') &&
    typeof issue.msg === 'string' &&
    typeof issue.type === 'string'
  );
}

function errorBodyProblem(res: Response): string | undefined {
  if (!/^application\/json/.test(res.headers['content-type'] ?? '')) return `error with content-type ${res.headers['content-type']}`;
  const body = res.body as Record<string, unknown> | undefined;
  if (typeof body !== 'object' || body === null || Object.keys(body).join() !== 'detail') return 'error body is not exactly {detail}';
  const { detail } = body;
  if (res.status === 422) {
    return Array.isArray(detail) && detail.length > 0 && detail.every(isIssue)
      ? undefined
      : '422 detail is not a non-empty [{loc, msg, type}]';
  }
  const structured = typeof detail === 'object' && detail !== null && typeof (detail as { message?: unknown }).message === 'string';
  return typeof detail === 'string' || structured ? undefined : 'detail is neither a string nor {message, ...}';
}

/**
 * What is wrong with an answer, by docs/api.md, "HTTP conventions": never a 5xx, every status one the OpenAPI document
 * lists for the operation, every response with an X-Request-Id, every error `{detail}` as JSON and
 * every 422 a list of `{loc, msg, type}`. Undefined when nothing is.
 */
export function responseProblem(res: Response, documentedStatuses: number[]): string | undefined {
  // No 503 is justified here: the database is up for the whole test.
  if (res.status >= 500) return `server error ${res.status}: ${res.text.slice(0, 300)}`;
  if (!documentedStatuses.includes(res.status))
    return `status ${res.status} is not in the OpenAPI document (${documentedStatuses.join(', ')}): ${res.text.slice(0, 300)}`;
  if (!res.headers['x-request-id']) return 'no X-Request-Id';
  if (res.status >= 400) {
    const problem = errorBodyProblem(res);
    if (problem) return `${problem}: ${res.status} ${res.text.slice(0, 300)}`;
  }
  return undefined;
}
