import { errorType, isRecord, TOOL_NAME, usageOf, type FakeReply, type LlmWire } from './fake-llm-reply.js';

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool']);

function validateTools(tools: unknown): string | null {
  if (tools === undefined) return null;
  if (!Array.isArray(tools) || tools.length === 0) return "[] is too short - 'tools'";
  for (const [i, tool] of tools.entries()) {
    if (!isRecord(tool) || tool.type !== 'function' || !isRecord(tool.function))
      return `Missing required parameter: 'tools[${i}].function'.`;
    if (typeof tool.function.name !== 'string' || !TOOL_NAME.test(tool.function.name))
      return `Invalid 'tools[${i}].function.name': string does not match pattern.`;
  }
  return null;
}

/** Every tool_call_id of an assistant turn must be answered by tool messages before anything else. */
function validateToolPairing(messages: Record<string, unknown>[]): string | null {
  let pending = new Set<string>();
  const unanswered = () =>
    "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. " +
    `The following tool_call_ids did not have response messages: ${[...pending].join(', ')}`;
  for (const [i, message] of messages.entries()) {
    if (message.role === 'tool') {
      if (typeof message.tool_call_id !== 'string' || !pending.delete(message.tool_call_id)) {
        return `Invalid parameter: messages[${i}]: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.`;
      }
      continue;
    }
    if (pending.size > 0) return unanswered();
    const calls = message.role === 'assistant' && Array.isArray(message.tool_calls) ? message.tool_calls : [];
    if (message.role === 'assistant' && Array.isArray(message.tool_calls) && calls.length === 0) {
      return `Invalid 'messages[${i}].tool_calls': empty array. Expected an array with minimum length 1, but got an empty array instead.`;
    }
    pending = new Set(calls.map((call: { id?: unknown }) => String(call.id)));
  }
  return pending.size > 0 ? unanswered() : null;
}

function validate(body: unknown): string | null {
  if (!isRecord(body)) return 'We could not parse the JSON body of your request.';
  if (typeof body.model !== 'string' || !body.model) return 'you must provide a model parameter';
  if (!Array.isArray(body.messages) || body.messages.length === 0) return "[] is too short - 'messages'";
  for (const [i, message] of body.messages.entries()) {
    if (!isRecord(message) || !ROLES.has(String(message.role))) return `Invalid value for 'messages[${i}].role'.`;
  }
  return validateTools(body.tools) ?? validateToolPairing(body.messages as Record<string, unknown>[]);
}

function usage(reply: FakeReply) {
  if (reply.rawUsage) return reply.rawUsage;
  const u = usageOf(reply);
  const prompt = u.inputTokens + u.cacheReadTokens;
  return {
    prompt_tokens: prompt,
    completion_tokens: u.outputTokens,
    total_tokens: prompt + u.outputTokens,
    prompt_tokens_details: { cached_tokens: u.cacheReadTokens, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

/** OpenAI Chat Completions (POST /v1/chat/completions). */
export const openaiWire: LlmWire = {
  api: 'openai',
  credential: (headers) => headers.authorization?.replace(/^Bearer\s+/i, ''),
  authError: (sent) => ({
    status: 401,
    body: {
      error: {
        message: sent
          ? `Incorrect API key provided: ${sent.slice(0, 3)}***${sent.slice(-4)}. You can find your API key at https://platform.openai.com/account/api-keys.`
          : "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth.",
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    },
  }),
  validate,
  completion(reply, request, nextId) {
    const toolCalls = (reply.toolCalls ?? []).map((call) => ({
      id: call.id ?? `call_${nextId()}`,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
    const message = {
      role: 'assistant',
      content: reply.text ?? null,
      refusal: null,
      annotations: [],
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    };
    return {
      id: `chatcmpl-${nextId()}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: request.body.model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: reply.stopReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop') }],
      ...(reply.usage === null && !reply.rawUsage ? {} : { usage: usage(reply) }),
      service_tier: 'default',
      system_fingerprint: 'fp_fake',
    };
  },
  error: (status, message) => ({ error: { message, type: errorType(status), param: null, code: null } }),
};
