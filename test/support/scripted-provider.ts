import {
  ProviderError,
  type ChatMessage,
  type Provider,
  type ProviderName,
  type ProviderRequest,
  type ProviderResponse,
  type ToolCallRequest,
  type Usage,
} from '../../core/agent/provider.js';

export type ScriptStep = ProviderResponse | Error | ((request: ProviderRequest) => ProviderResponse | Promise<ProviderResponse>);

/** Token usage with no cache activity. */
export function usage(inputTokens = 100, outputTokens = 50): Usage {
  return { inputTokens, outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 };
}

/** A tool call as the model makes it; object arguments are serialised, strings sent as they are. */
export function call(id: string, name: string, args: unknown = {}): ToolCallRequest {
  return { id, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) };
}

export function toolTurn(calls: ToolCallRequest[], used: Usage = usage()): ProviderResponse {
  return { text: null, toolCalls: calls, usage: used, stopReason: 'tool_calls' };
}

export function finalAnswer(text: string, used: Usage = usage()): ProviderResponse {
  return { text, toolCalls: [], usage: used, stopReason: 'stop' };
}

/** A step that never answers: it waits for the request's signal and fails as an aborted SDK call does. */
export function hangUntilAborted(): ScriptStep {
  return (request) =>
    new Promise<ProviderResponse>((_, reject) => {
      const abort = () => reject(new ProviderError('Request was aborted.', undefined, true));
      if (request.signal.aborted) abort();
      request.signal.addEventListener('abort', abort, { once: true });
    });
}

/**
 * The conversation rules both real APIs enforce with a 400: it starts with a user message, and
 * every tool call id of an assistant turn is answered exactly once, right after that turn,
 * before the next request.
 */
function conversationError(messages: ChatMessage[]): string | null {
  if (messages[0]?.role !== 'user') return 'the first message must be a user message';
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m.role === 'tool') return `tool message ${m.tool_call_id} does not follow a tool call`;
    if (m.role !== 'assistant' || m.tool_calls.length === 0) continue;
    const expected = new Set(m.tool_calls.map((c) => c.id));
    let j = i + 1;
    for (; j < messages.length && messages[j].role === 'tool'; j++) {
      const id = (messages[j] as { tool_call_id: string }).tool_call_id;
      if (!expected.delete(id)) return `tool message ${id} answers no pending tool call`;
    }
    if (expected.size > 0) return `tool_call_id(s) ${[...expected].join(', ')} were not answered`;
    i = j - 1;
  }
  return null;
}

/** A Provider that plays a script, one step per request, validating every request like the real APIs. */
export class ScriptedProvider implements Provider {
  readonly requests: ProviderRequest[] = [];
  readonly signals: AbortSignal[] = [];

  constructor(
    private readonly steps: ScriptStep[],
    readonly name: ProviderName = 'openai',
  ) {}

  get remainingSteps(): number {
    return this.steps.length;
  }

  async complete(request: ProviderRequest): Promise<ProviderResponse> {
    this.requests.push({ ...request, messages: structuredClone(request.messages) });
    this.signals.push(request.signal);
    const problem = conversationError(request.messages);
    if (problem) throw new ProviderError(`invalid request: ${problem}`, 400);
    const step = this.steps.shift();
    if (!step) throw new ProviderError('script exhausted: the run asked for more turns than scripted', 500);
    if (step instanceof Error) throw step;
    return typeof step === 'function' ? step(request) : structuredClone(step);
  }
}
