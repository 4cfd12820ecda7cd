import type { ContentBlockParam, MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import type { ChatMessage, ToolCallRequest, ToolDefinition } from '../core/agent/provider.js';

type Turn = { role: 'user' | 'assistant'; content: ContentBlockParam[] };

/**
 * Anthropic wants an object as tool input. Arguments that do not parse to one were already
 * denied by the runtime (invalid_arguments), so `{}` only keeps the transcript well formed.
 */
function toInput(call: ToolCallRequest): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(call.arguments);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function toBlocks(message: ChatMessage): ContentBlockParam[] {
  if (message.role === 'user') return [{ type: 'text', text: message.content }];
  if (message.role === 'tool') return [{ type: 'tool_result', tool_use_id: message.tool_call_id, content: message.content }];
  // Anthropic rejects empty text blocks, so an assistant turn without text carries only its tool calls.
  const text: ContentBlockParam[] = message.content ? [{ type: 'text', text: message.content }] : [];
  const calls = message.tool_calls.map((call): ContentBlockParam => ({
    type: 'tool_use',
    id: call.id,
    name: call.name,
    input: toInput(call),
  }));
  return [...text, ...calls];
}

/**
 * The neutral conversation as Anthropic messages. Roles must strictly alternate, so consecutive
 * messages of one role become one turn: every tool result of an assistant turn lands in ONE user
 * message (tool_result blocks first, as Anthropic requires, then any user text that followed).
 */
export function toAnthropicMessages(messages: ChatMessage[]): MessageParam[] {
  const turns: Turn[] = [];
  for (const message of messages) {
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const last = turns[turns.length - 1];
    if (last && last.role === role) last.content.push(...toBlocks(message));
    else turns.push({ role, content: toBlocks(message) });
  }
  for (const turn of turns) {
    // A model reply with neither text nor tool calls still needs non-empty content to be replayed.
    if (turn.content.length === 0) turn.content.push({ type: 'text', text: '(empty response)' });
  }
  return turns;
}

export function toAnthropicTools(tools: ToolDefinition[]): Tool[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { type: 'object', ...tool.parameters } as Tool.InputSchema,
  }));
}
