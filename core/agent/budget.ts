import type { ChatMessage, ProviderRequest, Usage } from './provider.js';
import type { ModelPrice } from './runtime-deps.js';

/** Output tokens asked for on every provider call; also the worst case reserved before it. */
export const MAX_OUTPUT_TOKENS = 4096;

const PER_MILLION = 1_000_000;
/** Float noise (e.g. 7.5 cents x tokens) must not round a whole cent up to the next one. */
const EPSILON = 1e-9;

function wholeCents(centsTimesMillion: number): number {
  return Math.max(0, Math.ceil(centsTimesMillion / PER_MILLION - EPSILON));
}

/** A prompt's estimated input tokens, kept up to date as its transcript grows. */
export interface PromptSize {
  add(message: ChatMessage): void;
  tokens(): number;
}

/**
 * Conservative guess of the prompt's tokens: its JSON length / 3 (real tokenizers average
 * about 4 characters per token on English and code, so this over-counts on purpose). The length
 * is that of `JSON.stringify({ system, messages, tools })`, summed message by message as they
 * are added, so a run's turn does not serialise its whole history again (that cost grew with
 * every turn of a long run).
 */
export function promptSize(prompt: Pick<ProviderRequest, 'system' | 'tools'>, messages: readonly ChatMessage[]): PromptSize {
  const frame = JSON.stringify({ system: prompt.system, messages: [], tools: prompt.tools }).length;
  let length = 0;
  let count = 0;
  const add = (message: ChatMessage) => {
    length += JSON.stringify(message).length;
    count += 1;
  };
  messages.forEach(add);
  // The messages sit between the frame's brackets, separated by commas.
  return { add, tokens: () => Math.ceil((frame + length + Math.max(0, count - 1)) / 3) };
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
