import * as core from '@actions/core';
import { ActionError } from './action-error.js';
import type { Credential } from './credential.js';
import { NotJson, oneLine } from './answers.js';
import { ShipgateRefusal } from './shipgate-refusal.js';

export interface RetryPolicy {
  /** Attempts per request, the first included. */
  attempts: number;
  /** Backoff before the second attempt; doubled each time, capped at maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Per attempt, connection to the answer's last byte. */
  timeoutMs: number;
  /** The whole request, every attempt and backoff: the last attempt is cut short to end within it. */
  budgetMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 1000, maxDelayMs: 30_000, timeoutMs: 30_000, budgetMs: 120_000 };

export interface ShipgateClient {
  /**
   * The answer's JSON, or NotJson when a 2xx body is not JSON: unchecked, for answers.ts to read.
   * `what` completes "Could not ..." and "shipgate refused to ..." in messages.
   */
  get(path: string, query: Record<string, string>, what: string): Promise<unknown>;
  post(path: string, body: unknown, what: string): Promise<unknown>;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One item of a detail, as text: a string, a 422 issue `{loc, msg}`, anything else as JSON. */
function issueText(issue: unknown): string {
  if (typeof issue === 'string') return issue;
  const { loc, msg } = (issue ?? {}) as { loc?: unknown; msg?: unknown };
  if (Array.isArray(loc) && typeof msg === 'string') return `${loc.join('.')}: ${msg}`;
  return JSON.stringify(issue) ?? String(issue);
}

/**
 * shipgate's `{"detail": ...}` as one line of bounded length: a string, a 422 list of
 * `{loc, msg}`, a policy denial's `{message}`, anything else as JSON (never "[object Object]").
 */
export function detailText(payload: unknown): string {
  if (payload instanceof NotJson) return payload.text.trim() === '' ? 'no details' : oneLine(payload.text.trim(), 300);
  const detail = (payload as { detail?: unknown } | null | undefined)?.detail;
  if (detail === undefined) return payload === undefined ? 'no details' : oneLine(JSON.stringify(payload), 300);
  if (Array.isArray(detail)) return oneLine(detail.map(issueText).join('; '));
  if (detail && typeof detail === 'object' && 'message' in detail && typeof detail.message === 'string') return oneLine(detail.message);
  return oneLine(issueText(detail));
}

function refusal(status: number, payload: unknown, credential: Credential, what: string): ShipgateRefusal {
  const detail = detailText(payload);
  const refused = (message: string) => new ShipgateRefusal(message, status, (payload as { detail?: unknown } | null | undefined)?.detail);
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

/** The most of an answer the Action reads; a larger one is refused at once, not retried. */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;
const MAX_ANSWER = 'at most 16 MiB (16,777,216 bytes)';

const seconds = (ms: number) => `${Math.round(ms / 100) / 10}s`;

function networkReason(error: unknown, timedOut: boolean, attemptMs: number): string {
  if (timedOut) return `no answer within ${seconds(attemptMs)}`;
  const e = error as { message?: string; cause?: { code?: string; message?: string } };
  return `could not connect (${oneLine(String(e?.cause?.code ?? e?.cause?.message ?? e?.message ?? error), 300)})`;
}

/**
 * Retry-After as whole seconds or as an HTTP date still to come; undefined when absent, negative,
 * past or unreadable (the default backoff applies then).
 */
function retryAfterMs(header: string | null): number | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  if (/^\d{1,9}$/.test(value)) return Number(value) * 1000;
  if (!/^[A-Za-z]{3}, /.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) || at <= Date.now() ? undefined : at - Date.now();
}

/** The body, at most MAX_ANSWER_BYTES: refused as soon as it says or shows it is larger. */
async function readBody(response: Response, what: string): Promise<string> {
  const announced = Number(response.headers.get('content-length') ?? 0);
  if (announced > MAX_ANSWER_BYTES) {
    await response.body?.cancel().catch(() => undefined);
    throw new ActionError(`shipgate answered ${announced.toLocaleString('en-US')} bytes to ${what}: the Action reads ${MAX_ANSWER}.`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += (chunk as Uint8Array).byteLength;
    if (size > MAX_ANSWER_BYTES)
      throw new ActionError(`shipgate answered more than 16 MiB (16,777,216 bytes) to ${what}: the Action reads no more.`);
    chunks.push(chunk as Uint8Array);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The body as JSON, or NotJson (an empty body, an HTML page, garbage): the caller says what it expected. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return new NotJson(text);
  }
}

/**
 * shipgate's HTTP API. Network errors, timeouts, 5xx and 429 are retried with exponential
 * backoff (429 and 503 wait as long as Retry-After says), within `budgetMs`; any other 4xx fails
 * at once with shipgate's detail, as do a redirect (never followed) and an answer over 16 MiB.
 * Each attempt has `timeoutMs` for its whole answer, headers and body (a timer of its own,
 * cleared after: a body that dribbles in is cut off), and never more than what is left of
 * `budgetMs`, so no request takes longer than `budgetMs` in all. The credential goes only into
 * the Authorization header.
 */
export function createClient(apiUrl: string, credential: Credential, policy = DEFAULT_RETRY, wait = sleep): ShipgateClient {
  async function request(method: 'GET' | 'POST', path: string, what: string, body?: unknown): Promise<unknown> {
    const url = `${apiUrl}/api/v1${path}`;
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      let failure: string;
      let delay: number | undefined;
      const headers: Record<string, string> = { Accept: 'application/json', 'User-Agent': 'shipgate-action' };
      headers.Authorization = `Bearer ${await credential.token()}`;
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      const attemptMs = Math.max(1, Math.min(policy.timeoutMs, policy.budgetMs - (Date.now() - started)));
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), attemptMs);
      try {
        const response = await fetch(url, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: controller.signal,
          redirect: 'manual',
        });
        if (response.status >= 300 && response.status < 400) {
          await response.body?.cancel().catch(() => undefined);
          const location = response.headers.get('location');
          throw new ActionError(
            `shipgate answered ${response.status}, a redirect to ${location ? oneLine(location, 300) : 'nowhere'}, to ${what}: ` +
              'the Action follows no redirect. Is api-url the address shipgate answers at (e.g. https rather than http)?',
          );
        }
        const payload = parseJson(await readBody(response, what));
        if (response.ok) return payload;
        if (response.status !== 429 && response.status < 500) throw refusal(response.status, payload, credential, what);
        failure = `shipgate answered ${response.status}: ${detailText(payload)}`;
        delay = retryAfterMs(response.headers.get('retry-after'));
      } catch (error) {
        if (error instanceof ActionError) throw error;
        failure = `${networkReason(error, controller.signal.aborted, attemptMs)} at ${apiUrl}`;
      } finally {
        clearTimeout(timer);
      }
      const backoff = Math.min(policy.maxDelayMs, delay ?? policy.baseDelayMs * 2 ** (attempt - 1));
      const elapsed = Date.now() - started;
      if (attempt >= policy.attempts || elapsed + backoff >= policy.budgetMs)
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
