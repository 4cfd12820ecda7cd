import { ProviderError } from '../core/agent/provider.js';

/** Longest provider message kept: it ends up in the execution's error, which users read. */
const MAX_MESSAGE_LENGTH = 300;

/**
 * Key-shaped words are removed even when they are not our key: a provider may echo a masked
 * form of it ("Incorrect API key provided: sk-ab***xyz"), which still leaks its edges. A key's
 * prefix (`sk-`, so `sk-ant-` and `sk-proj-` too, or `sg_`) and six more characters start one, to
 * the next white space; any word holding `***` is one. Words are matched once each, from their
 * start (docs/operations.md, "Regular expressions").
 */
const KEY_PREFIXED = /\b(?:sk|sg)[-_][\w-]{6}\S*/g;
const WORD = /\S+/g;

interface ErrorContext {
  provider: string;
  apiKey: string;
  signal: AbortSignal;
}

/** Removes the key (and anything that looks like one) from text that will be stored or shown. */
export function redactSecret(text: string, apiKey: string): string {
  let out = apiKey ? text.split(apiKey).join('[redacted]') : text;
  out = out.replace(KEY_PREFIXED, '[redacted]').replace(WORD, (word) => (word.includes('***') ? '[redacted]' : word));
  return out.length > MAX_MESSAGE_LENGTH ? `${out.slice(0, MAX_MESSAGE_LENGTH)}…` : out;
}

function describe(error: unknown): { status?: number; detail: string } {
  if (typeof error !== 'object' || error === null) return { detail: String(error) };
  const e = error as { status?: unknown; error?: unknown; message?: unknown; name?: unknown };
  const status = typeof e.status === 'number' ? e.status : undefined;
  // The SDKs prefix their message with the status; the provider's own words are in `error`.
  const body = e.error as { message?: unknown; error?: { message?: unknown } } | undefined;
  const apiMessage = body?.error?.message ?? body?.message;
  if (status !== undefined && typeof apiMessage === 'string') return { status, detail: apiMessage };
  if (typeof e.message === 'string' && e.message) return { status, detail: e.message };
  return { status, detail: typeof e.name === 'string' ? e.name : 'unknown error' };
}

/**
 * Turns anything an SDK throws into a ProviderError. The original error is deliberately not
 * attached as `cause`: SDK errors carry request options and headers that must never be logged.
 */
export function toProviderError(error: unknown, { provider, apiKey, signal }: ErrorContext): ProviderError {
  const name = (error as { name?: unknown } | null)?.name;
  if (signal.aborted || name === 'APIUserAbortError' || name === 'AbortError') {
    return new ProviderError(`${provider} request aborted`, undefined, true);
  }
  const { status, detail } = describe(error);
  const prefix = status === undefined ? `${provider} request failed` : `${provider} API error ${status}`;
  return new ProviderError(`${prefix}: ${redactSecret(detail, apiKey)}`, status);
}
