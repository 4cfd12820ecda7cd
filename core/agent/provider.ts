/**
 * The provider port: one neutral conversation format that the OpenAI and Anthropic adapters
 * (in llm/) translate to and from their wire formats.
 */
export type ProviderName = 'openai' | 'anthropic';
export const PROVIDERS: readonly ProviderName[] = ['openai', 'anthropic'];

export interface ToolCallRequest {
  /** The provider's tool call id; every one must be answered before the next request. */
  id: string;
  name: string;
  /** The arguments exactly as the model produced them (a JSON text that may not parse). */
  arguments: string;
}

export type ChatMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls: ToolCallRequest[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments (from the tool's zod schema). */
  parameters: Record<string, unknown>;
}

export interface ProviderRequest {
  model: string;
  system: string;
  messages: ChatMessage[];
  tools: ToolDefinition[];
  maxTokens: number;
  signal: AbortSignal;
}

/** Token usage as the provider reported it; every figure counts tokens billed at that rate. */
export interface Usage {
  /** Input tokens billed at the normal input rate (for OpenAI: prompt tokens minus cached). */
  inputTokens: number;
  outputTokens: number;
  /** Input tokens read from the prompt cache (OpenAI cached_tokens; Anthropic cache_read_input_tokens). */
  cacheReadTokens: number;
  /** Anthropic cache_creation_input_tokens; 0 for OpenAI. */
  cacheWriteTokens: number;
}

export interface ProviderResponse {
  /** The assistant's text (the final answer when there are no tool calls). */
  text: string | null;
  toolCalls: ToolCallRequest[];
  /** Missing usage fails the execution closed: a budget that cannot be counted is not enforced. */
  usage: Usage | null;
  stopReason: string;
}

export interface Provider {
  readonly name: ProviderName;
  complete(request: ProviderRequest): Promise<ProviderResponse>;
}

/** Raised by adapters for any provider failure (HTTP error, bad response), never with a key in it. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly aborted = false,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** Builds a provider; undefined when no API key exists for it (`provider_not_configured`). */
export type ProviderFactory = (provider: ProviderName, apiKeyOverride?: string) => Provider | undefined;
