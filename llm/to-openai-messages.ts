import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { ChatMessage, ToolDefinition } from '../core/agent/provider.js';

/** The neutral conversation as Chat Completions messages: the system prompt first, the rest in order. */
export function toOpenAiMessages(system: string, messages: ChatMessage[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = system ? [{ role: 'system', content: system }] : [];
  for (const message of messages) {
    if (message.role === 'user') {
      out.push({ role: 'user', content: message.content });
    } else if (message.role === 'tool') {
      out.push({ role: 'tool', tool_call_id: message.tool_call_id, content: message.content });
    } else if (message.tool_calls.length === 0) {
      out.push({ role: 'assistant', content: message.content ?? '' });
    } else {
      // The arguments go back exactly as the model wrote them, even when they do not parse.
      const toolCalls = message.tool_calls.map((call) => ({
        id: call.id,
        type: 'function' as const,
        function: { name: call.name, arguments: call.arguments },
      }));
      out.push({ role: 'assistant', content: message.content, tool_calls: toolCalls });
    }
  }
  return out;
}

export function toOpenAiTools(tools: ToolDefinition[]): ChatCompletionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}
