import { boundedFetch, type Fetch } from '../core/bounded-fetch.js';

/** A provider request's time, its answer read whole included (the SDKs' own timeout covers only the wait for headers). */
export const PROVIDER_TIMEOUT_MS = 600_000;

/** The largest provider answer read: a turn's answer is bounded by its max_tokens, a few hundred KiB at most. */
export const PROVIDER_ANSWER_MAX_BYTES = 32 * 1024 * 1024;

/**
 * The longest wait a provider's `Retry-After` may ask: the SDKs sleep for whatever it says (27
 * hours for a 429 asking 999999 s, past the run's cancel), and a cancel waits for that sleep.
 */
export const PROVIDER_MAX_RETRY_AFTER_SECONDS = 10;

/**
 * The fetch the provider SDKs send with (docs/operations.md, "Remote answers"): a trickled answer
 * ends at `timeoutMs`, a 300 MB one at PROVIDER_ANSWER_MAX_BYTES, a long `Retry-After` at
 * PROVIDER_MAX_RETRY_AFTER_SECONDS; the SDK reports the first two as a connection error.
 */
export function boundedProviderFetch(timeoutMs: number): Fetch {
  return boundedFetch(fetch, {
    timeoutMs,
    maxBytes: PROVIDER_ANSWER_MAX_BYTES,
    what: 'The provider',
    maxRetryAfterSeconds: PROVIDER_MAX_RETRY_AFTER_SECONDS,
  });
}
