import type { ProviderRequest, Usage } from './provider.js';
import type { ModelPrice } from './runtime-deps.js';

/** Output tokens asked for on every provider call; also the worst case reserved before it. */
export const MAX_OUTPUT_TOKENS = 4096;

const PER_MILLION = 1_000_000;
/** Float noise (e.g. 7.5 cents x tokens) must not round a whole cent up to the next one. */
const EPSILON = 1e-9;

function wholeCents(centsTimesMillion: number): number {
  return Math.max(0, Math.ceil(centsTimesMillion / PER_MILLION - EPSILON));
}

/**
 * Conservative guess of the prompt's tokens: its JSON length / 3 (real tokenizers average
 * about 4 characters per token on English and code, so this over-counts on purpose).
 */
export function estimateInputTokens(request: Pick<ProviderRequest, 'system' | 'messages' | 'tools'>): number {
  const length = JSON.stringify({ system: request.system, messages: request.messages, tools: request.tools }).length;
  return Math.ceil(length / 3);
}

/** The most the call can cost: every input token at the full input rate plus max_tokens of output. */
export function reservationCents(price: ModelPrice, inputTokens: number, maxTokens: number): number {
  return wholeCents(inputTokens * price.input + maxTokens * price.output);
}

/**
 * The real cost of a call from its usage, rounded up to whole cents. Each bucket has its own
 * rate: cache reads at `cached_input` and cache writes at `cache_write`, both defaulting to the
 * input rate when the table does not price them separately.
 */
export function usageCents(price: ModelPrice, usage: Usage): number {
  return wholeCents(
    usage.inputTokens * price.input +
      usage.outputTokens * price.output +
      usage.cacheReadTokens * (price.cached_input ?? price.input) +
      usage.cacheWriteTokens * (price.cache_write ?? price.input),
  );
}
