import { storableText } from '../storable-text.js';
import type { ProviderResponse, ToolCallRequest, Usage } from './provider.js';

/**
 * The most of an answer's text, or of one tool call's arguments, that is kept. A model asked for
 * MAX_OUTPUT_TOKENS (4,096) cannot honestly write more; a provider that sends more is broken or
 * hostile, and the run must not store (or send back to the model) tens of megabytes of it.
 */
export const MAX_ANSWER_CHARS = 1024 * 1024;
/** What is kept of a text over its limit: enough to see what it was. */
export const KEPT_PREFIX_CHARS = 4096;
/** A tool call's id and name are kept to this many characters (providers allow 64). */
const MAX_NAME_CHARS = 256;
/** No model's context comes near a billion tokens; a figure past it cannot be a real count. */
const MAX_TOKEN_FIGURE = 1_000_000_000;

/** The text as it can be stored: see storableText; over `max` characters, its first KEPT_PREFIX_CHARS and a note. */
function kept(text: string, max: number): string {
  if (text.length <= max) return storableText(text);
  const prefix = storableText(text.slice(0, Math.min(max, KEPT_PREFIX_CHARS)));
  return `${prefix}… (${text.length} characters; only these were kept)`;
}

/** Adapters pass the wire's values on untyped at run time: a non-string becomes its JSON text. */
function asText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

function keptCall(call: ToolCallRequest): ToolCallRequest {
  return {
    id: kept(asText(call.id), MAX_NAME_CHARS),
    name: kept(asText(call.name), MAX_NAME_CHARS),
    arguments: kept(asText(call.arguments), MAX_ANSWER_CHARS),
  };
}

const USAGE_FIGURES: [keyof Usage, string][] = [
  ['inputTokens', 'input tokens'],
  ['outputTokens', 'output tokens'],
  ['cacheReadTokens', 'cache read tokens'],
  ['cacheWriteTokens', 'cache write tokens'],
];

/** Why the usage cannot be counted (a figure that is no whole number of tokens), or null. */
function usageProblem(usage: Usage): string | null {
  for (const [key, label] of USAGE_FIGURES) {
    const figure: unknown = usage[key];
    if (typeof figure !== 'number' || !Number.isSafeInteger(figure) || figure < 0 || figure > MAX_TOKEN_FIGURE)
      return `${label}: ${JSON.stringify(figure) ?? String(figure)}`;
  }
  return null;
}

/**
 * A provider's answer as the run may use it (docs/workflows.md, "Governed agent executions"): every
 * text storable and bounded, or, when its usage is missing or cannot be counted, what it reported.
 * A turn whose cost is unknown is not used: a budget that cannot be counted is not enforced.
 */
export function acceptProviderResponse(
  response: ProviderResponse,
): { response: ProviderResponse & { usage: Usage } } | { usageProblem: string } {
  const { usage } = response;
  if (!usage) return { usageProblem: 'no token usage' };
  const problem = usageProblem(usage);
  if (problem) return { usageProblem: `token usage that cannot be counted (${problem})` };
  return {
    response: {
      usage,
      text: response.text === null || response.text === undefined ? null : kept(asText(response.text), MAX_ANSWER_CHARS),
      toolCalls: (response.toolCalls ?? []).map(keptCall),
      stopReason: kept(asText(response.stopReason), MAX_NAME_CHARS),
    },
  };
}
