import type { IncomingHttpHeaders } from 'node:http';
import { errorType, isRecord, TOOL_NAME, usageOf, type FakeReply, type LlmWire } from './fake-llm-reply.js';

type Block = Record<string, unknown>;

function blocksOf(content: unknown): Block[] {
  return Array.isArray(content) ? content.filter(isRecord) : [{ type: 'text', text: content }];
}

function idsOf(blocks: Block[], type: 'tool_use' | 'tool_result'): string[] {
  return blocks.filter((b) => b.type === type).map((b) => String(type === 'tool_use' ? b.id : b.tool_use_id));
}

function validateMessage(message: unknown, i: number, previous: Block[] | undefined): string | null {
  if (!isRecord(message) || (message.role !== 'user' && message.role !== 'assistant')) {
    return `messages.${i}.role: Input should be 'user' or 'assistant'`;
  }
  const content = message.content;
  if (content === '' || (Array.isArray(content) && content.length === 0)) {
    return `messages.${i}: all messages must have non-empty content except for the optional final assistant message`;
  }
  if (typeof content !== 'string' && !Array.isArray(content)) return `messages.${i}.content: Input should be a valid list`;
  const blocks = blocksOf(content);
  if (blocks.some((b) => b.type === 'text' && !b.text)) return 'messages: text content blocks must be non-empty';
  const uses = previous ? idsOf(previous, 'tool_use') : [];
  const results = idsOf(blocks, 'tool_result');
  const stray = results.filter((id) => !uses.includes(id));
  if (stray.length > 0) {
    return (
      `messages.${i}.content.0: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${stray.join(', ')}. ` +
      'Each `tool_result` block must have a corresponding `tool_use` block in the previous message.'
    );
  }
  return null;
}

function unansweredToolUse(index: number, ids: string[]): string {
  return (
    `messages.${index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${ids.join(', ')}. ` +
    'Each `tool_use` block must have a corresponding `tool_result` block in the next message.'
  );
}

/** Roles alternate (user first) and every tool_use is answered by a tool_result in the very next message. */
function validateMessages(messages: unknown[]): string | null {
  let previous: Record<string, unknown> | undefined;
  for (const [i, message] of messages.entries()) {
    const problem = validateMessage(message, i, previous && blocksOf(previous.content));
    if (problem) return problem;
    const current = message as Record<string, unknown>;
    if (i === 0 && current.role !== 'user') return 'messages: first message must use the "user" role';
    if (previous && previous.role === current.role) {
      return `messages: roles must alternate between "user" and "assistant", but found multiple "${current.role}" roles in a row`;
    }
    const answered = idsOf(blocksOf(current.content), 'tool_result');
    const unanswered = previous ? idsOf(blocksOf(previous.content), 'tool_use').filter((id) => !answered.includes(id)) : [];
    if (unanswered.length > 0) return unansweredToolUse(i, unanswered);
    previous = current;
  }
  const trailing = previous ? idsOf(blocksOf(previous.content), 'tool_use') : [];
  return trailing.length > 0 ? unansweredToolUse(messages.length, trailing) : null;
}

function validateTools(tools: unknown): string | null {
  if (tools === undefined) return null;
  if (!Array.isArray(tools)) return 'tools: Input should be a valid list';
  for (const [i, tool] of tools.entries()) {
    if (!isRecord(tool) || typeof tool.name !== 'string' || !TOOL_NAME.test(tool.name))
      return `tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`;
    if (!isRecord(tool.input_schema) || tool.input_schema.type !== 'object') return `tools.${i}.custom.input_schema.type: Field required`;
  }
  return null;
}

function validate(body: unknown, headers: IncomingHttpHeaders): string | null {
  if (!headers['anthropic-version']) return 'anthropic-version: header is required';
  if (!isRecord(body)) return 'Input should be a valid dictionary or object to extract fields from';
  if (typeof body.model !== 'string' || !body.model) return 'model: Field required';
  if (body.max_tokens === undefined) return 'max_tokens: Field required';
  if (!Number.isInteger(body.max_tokens) || (body.max_tokens as number) < 0)
    return 'max_tokens: Input should be greater than or equal to 0';
  if (body.system !== undefined && typeof body.system !== 'string' && !Array.isArray(body.system))
    return 'system: Input should be a valid list';
  if (!Array.isArray(body.messages) || body.messages.length === 0) return 'messages: Field required';
  return validateTools(body.tools) ?? validateMessages(body.messages);
}

/** The real API only ever sends JSON input; unparsable scripted arguments go out as a JSON string. */
function toInput(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function usage(reply: FakeReply) {
  if (reply.rawUsage) return reply.rawUsage;
  const u = usageOf(reply);
  return {
    input_tokens: u.inputTokens,
    output_tokens: u.outputTokens,
    cache_read_input_tokens: u.cacheReadTokens,
    cache_creation_input_tokens: u.cacheWriteTokens,
  };
}

/** Anthropic Messages (POST /v1/messages). */
export const anthropicWire: LlmWire = {
  api: 'anthropic',
  // SDK 1.x (API version 2026-10-21) sends the key as a Bearer token; older clients use x-api-key.
  credential: (headers) => (headers['x-api-key'] as string | undefined) ?? headers.authorization?.replace(/^Bearer\s+/i, ''),
  authError: () => ({
    status: 401,
    body: { type: 'error', error: { type: 'authentication_error', message: 'invalid authentication credentials' } },
  }),
  validate,
  completion(reply, request, nextId) {
    const toolUses = (reply.toolCalls ?? []).map((call) => ({
      type: 'tool_use',
      id: call.id ?? `toolu_${nextId()}`,
      name: call.name,
      input: toInput(call.arguments),
    }));
    const text = reply.text ? [{ type: 'text', text: reply.text, citations: null }] : [];
    return {
      id: `msg_${nextId()}`,
      type: 'message',
      role: 'assistant',
      model: request.body.model,
      content: [...text, ...toolUses],
      stop_reason: reply.stopReason ?? (toolUses.length > 0 ? 'tool_use' : 'end_turn'),
      stop_sequence: null,
      ...(reply.usage === null && !reply.rawUsage ? {} : { usage: usage(reply) }),
    };
  },
  error: (status, message) => ({ type: 'error', error: { type: errorType(status), message } }),
};
