import Anthropic from '@anthropic-ai/sdk';
import { boundedProviderFetch, PROVIDER_TIMEOUT_MS } from './bounded-provider-fetch.js';
import type { Message } from '@anthropic-ai/sdk/resources/messages';
import type { Provider, ProviderRequest, ProviderResponse, ToolCallRequest, Usage } from '../core/agent/provider.js';
import { toAnthropicMessages, toAnthropicTools } from './to-anthropic-messages.js';
import { toProviderError } from './to-provider-error.js';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';

export interface AnthropicProviderOptions {
  apiKey: string;
  /** Excludes `/v1` (the SDK appends /v1/messages). */
  baseURL?: string;
  maxRetries?: number;
  timeoutMs?: number;
}

function toUsage(usage: Message['usage'] | undefined): Usage | null {
  if (!usage) return null;
  return {
    inputTokens: usage.input_tokens,
    outputTokens: usage.output_tokens,
    cacheReadTokens: usage.cache_read_input_tokens ?? 0,
    cacheWriteTokens: usage.cache_creation_input_tokens ?? 0,
  };
}

function toResponse(message: Message): ProviderResponse {
  const texts: string[] = [];
  const toolCalls: ToolCallRequest[] = [];
  for (const block of message.content ?? []) {
    if (block.type === 'text') texts.push(block.text);
    // The port carries arguments as text, as OpenAI sends them; the runtime parses both alike.
    if (block.type === 'tool_use') toolCalls.push({ id: block.id, name: block.name, arguments: JSON.stringify(block.input ?? {}) });
  }
  return {
    text: texts.length > 0 ? texts.join('') : null,
    toolCalls,
    usage: toUsage(message.usage),
    stopReason: message.stop_reason ?? 'unknown',
  };
}

/** The Provider port over the official Anthropic SDK (Messages API with client tools). */
export function createAnthropicProvider(options: AnthropicProviderOptions): Provider {
  // Every option is explicit so the SDK never falls back to process.env: config is read in one place.
  // An explicit timeout also stops the SDK from refusing large max_tokens without streaming.
  const timeout = options.timeoutMs ?? PROVIDER_TIMEOUT_MS;
  const client = new Anthropic({
    apiKey: options.apiKey,
    baseURL: options.baseURL ?? ANTHROPIC_DEFAULT_BASE_URL,
    maxRetries: options.maxRetries ?? 2,
    logLevel: 'off',
    fetch: boundedProviderFetch(timeout),
  });

  async function complete(request: ProviderRequest): Promise<ProviderResponse> {
    try {
      const message = await client.messages.create(
        {
          model: request.model,
          max_tokens: request.maxTokens,
          messages: toAnthropicMessages(request.messages),
          ...(request.system ? { system: request.system } : {}),
          ...(request.tools.length > 0 ? { tools: toAnthropicTools(request.tools) } : {}),
        },
        { signal: request.signal, timeout },
      );
      return toResponse(message);
    } catch (error) {
      throw toProviderError(error, { provider: 'anthropic', apiKey: options.apiKey, signal: request.signal });
    }
  }

  return { name: 'anthropic', complete };
}
