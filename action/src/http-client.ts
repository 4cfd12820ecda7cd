import * as core from '@actions/core';
import { ActionError } from './action-error.js';
import type { Credential } from './credential.js';
import { ShipgateRefusal } from './shipgate-refusal.js';

export interface RetryPolicy {
  /** Attempts per request, the first included. */
  attempts: number;
  /** Backoff before the second attempt; doubled each time, capped at maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Per attempt, connection to last byte. */
  timeoutMs: number;
  /** No retry starts once this much time has gone since the first attempt. */
  budgetMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 1000, maxDelayMs: 30_000, timeoutMs: 30_000, budgetMs: 120_000 };

export interface ShipgateClient {
  /** `what` completes "Could not ..." and "shipgate refused to ..." in messages. */
  get<T>(path: string, query: Record<string, string>, what: string): Promise<T>;
  post<T>(path: string, body: unknown, what: string): Promise<T>;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** shipgate's `{"detail": ...}` as one line: a string, a 422 list of `{loc, msg}`, or a policy denial. */
export function detailText(payload: unknown): string {
  const detail = (payload as { detail?: unknown } | undefined)?.detail;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail))
    return detail.map((issue: { loc?: unknown[]; msg?: string }) => `${(issue.loc ?? []).join('.')}: ${issue.msg ?? ''}`).join('; ');
  if (detail && typeof detail === 'object' && 'message' in detail) return String(detail.message);
  return payload === undefined ? 'no details' : JSON.stringify(payload).slice(0, 300);
}

function refusal(status: number, payload: unknown, credential: Credential, what: string): ShipgateRefusal {
  const detail = detailText(payload);
  const refused = (message: string) => new ShipgateRefusal(message, status, (payload as { detail?: unknown } | undefined)?.detail);
  if (status === 401)
    return refused(
      credential.kind === 'api-key'
        ? `shipgate refused the API key (401): ${detail} Check the secret passed as api-key, or create a new key (see the README).`
        : `shipgate refused this job's GitHub OIDC token (401): ${detail}`,
    );
  if (status === 403) return refused(`shipgate refused to ${what} (403): ${detail}`);
  if (status === 404) return refused(`shipgate answered 404 to ${what}: ${detail} Is api-url the service's base URL?`);
  if (status === 422) return refused(`shipgate rejected the request to ${what} (422): ${detail}`);
  return refused(`shipgate answered ${status} to ${what}: ${detail}`);
}

function networkReason(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `no answer within ${timeoutMs / 1000}s`;
  return `could not connect (${e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(error)})`;
}

/** Retry-After in seconds or as an HTTP date; undefined when absent or unreadable. */
function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return { detail: text.slice(0, 300) };
  }
}

/**
 * shipgate's HTTP API. Network errors, timeouts, 5xx and 429 are retried with exponential
 * backoff (429 and 503 wait as long as Retry-After says), within `budgetMs`; any other 4xx fails
 * at once with shipgate's detail. The credential goes only into the Authorization header.
 */
export function createClient(apiUrl: string, credential: Credential, policy = DEFAULT_RETRY, wait = sleep): ShipgateClient {
  async function request<T>(method: 'GET' | 'POST', path: string, what: string, body?: unknown): Promise<T> {
    const url = `${apiUrl}/api/v1${path}`;
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      let failure: string;
      let delay: number | undefined;
      const headers: Record<string, string> = { Accept: 'application/json', 'User-Agent': 'shipgate-action' };
      headers.Authorization = `Bearer ${await credential.token()}`;
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      try {
        const response = await fetch(url, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(policy.timeoutMs),
          redirect: 'error',
        });
        const payload = await readJson(response);
        if (response.ok) return payload as T;
        if (response.status !== 429 && response.status < 500) throw refusal(response.status, payload, credential, what);
        failure = `shipgate answered ${response.status}: ${detailText(payload)}`;
        delay = retryAfterMs(response.headers.get('retry-after'));
      } catch (error) {
        if (error instanceof ActionError) throw error;
        failure = `${networkReason(error, policy.timeoutMs)} at ${apiUrl}`;
      }
      const backoff = Math.min(policy.maxDelayMs, delay ?? policy.baseDelayMs * 2 ** (attempt - 1));
      const elapsed = Date.now() - started;
      if (attempt >= policy.attempts || elapsed + backoff > policy.budgetMs)
        throw new ActionError(`Could not ${what} after ${attempt} attempt(s) in ${Math.round(elapsed / 1000)}s: ${failure}`);
      core.info(`${failure}; retrying in ${backoff / 1000}s (attempt ${attempt + 1} of ${policy.attempts}).`);
      await wait(backoff);
    }
  }
  return {
    get: (path, query, what) => request('GET', `${path}?${new URLSearchParams(query)}`, what),
    post: (path, body, what) => request('POST', path, what, body),
  };
}
