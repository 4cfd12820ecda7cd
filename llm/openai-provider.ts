import OpenAI from 'openai';
import { boundedProviderFetch, PROVIDER_TIMEOUT_MS } from './bounded-provider-fetch.js';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import {
  ProviderError,
  type Provider,
  type ProviderRequest,
  type ProviderResponse,
  type ToolCallRequest,
  type Usage,
} from '../core/agent/provider.js';
import { toOpenAiMessages, toOpenAiTools } from './to-openai-messages.js';
import { toProviderError } from './to-provider-error.js';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/**
 * How the output limit is sent. OpenAI deprecated `max_tokens` and its reasoning models reject
 * it; most OpenAI-compatible servers (Ollama, LM Studio, llama.cpp) only know `max_tokens`.
 */
export type TokenLimitField = 'max_completion_tokens' | 'max_tokens';

export interface OpenAiProviderOptions {
  apiKey: string;
  /** Includes `/v1`, e.g. http://localhost:11434/v1 for Ollama. */
  baseURL?: string;
  maxRetries?: number;
  timeoutMs?: number;
  /** Defaults to max_completion_tokens for api.openai.com and max_tokens for any other server. */
  tokenLimitField?: TokenLimitField;
}

export function tokenLimitFieldFor(baseURL: string): TokenLimitField {
  return new URL(baseURL).hostname === 'api.openai.com' ? 'max_completion_tokens' : 'max_tokens';
}

function toUsage(usage: ChatCompletion['usage']): Usage | null {
  if (!usage) return null;
  // prompt_tokens already includes the cached ones; the neutral figures must not count them twice.
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  return { inputTokens: usage.prompt_tokens - cached, outputTokens: usage.completion_tokens, cacheReadTokens: cached, cacheWriteTokens: 0 };
}

function toToolCalls(message: ChatCompletion.Choice['message']): ToolCallRequest[] {
  return (message.tool_calls ?? []).map((call) =>
    call.type === 'function'
      ? { id: call.id, name: call.function.name, arguments: call.function.arguments }
      : { id: call.id, name: call.custom.name, arguments: call.custom.input },
  );
}

/** The Provider port over the official OpenAI SDK (Chat Completions with function tools). */
export function createOpenAiProvider(options: OpenAiProviderOptions): Provider {
  const baseURL = options.baseURL ?? OPENAI_DEFAULT_BASE_URL;
  const tokenLimitField = options.tokenLimitField ?? tokenLimitFieldFor(baseURL);
  // Every option is explicit so the SDK never falls back to process.env: config is read in one place.
  const timeoutMs = options.timeoutMs ?? PROVIDER_TIMEOUT_MS;
  const client = new OpenAI({
    apiKey: options.apiKey,
    baseURL,
    organization: null,
    project: null,
    maxRetries: options.maxRetries ?? 2,
    timeout: timeoutMs,
    logLevel: 'off',
    fetch: boundedProviderFetch(timeoutMs),
  });

  async function complete(request: ProviderRequest): Promise<ProviderResponse> {
    let completion: ChatCompletion;
    try {
      completion = await client.chat.completions.create(
        {
          model: request.model,
          messages: toOpenAiMessages(request.system, request.messages),
          ...(request.tools.length > 0 ? { tools: toOpenAiTools(request.tools) } : {}),
          [tokenLimitField]: request.maxTokens,
        },
        { signal: request.signal },
      );
    } catch (error) {
      throw toProviderError(error, { provider: 'openai', apiKey: options.apiKey, signal: request.signal });
    }
    const choice = completion.choices?.[0];
    if (!choice) throw new ProviderError('openai API error: the response holds no choices');
    return {
      // A refusal is the model's answer too; it must reach the output rather than vanish.
      text: choice.message.content ?? choice.message.refusal ?? null,
      toolCalls: toToolCalls(choice.message),
      usage: toUsage(completion.usage),
      stopReason: choice.finish_reason ?? 'unknown',
    };
  }

  return { name: 'openai', complete };
}
