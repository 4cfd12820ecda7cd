import type { z } from 'zod';
import type { HookAgent, HookEvent, HookToolCall } from '../../core/hooks/hook-call.js';
import { recordableCall } from '../../core/hooks/recordable-call.js';
import { jsonBodyFacts } from '../middleware/json-body.js';
import {
  claudePostToolUseSchema,
  claudePreToolUseSchema,
  copilotOtherEventSchema,
  copilotToolEventSchema,
  geminiAfterToolSchema,
  geminiBeforeToolSchema,
  otherHookEventSchema,
} from '../schemas/hook-schemas.js';

/** The format an answer is written in: the agent's own, or Claude's for a Claude-format body sent to Copilot's endpoint. */
export type AnswerFormat = 'claude' | 'copilot' | 'gemini';

export type ParsedHook = { format: AnswerFormat; event: HookEvent } | { problem: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function problemOf(error: z.ZodError, what: string): { problem: string } {
  const first = error.issues[0];
  return { problem: `Not a ${what}: ${first.path.join('.') || 'body'}: ${first.message}` };
}

/** The fields every snake_case tool event has (api/schemas/hook-schemas.ts). */
interface SnakeToolEvent {
  session_id: string;
  cwd: string;
  tool_name: string;
  tool_input: Record<string, unknown>;
  tool_use_id?: string;
  agent_id?: string;
  mcp_server?: { name: string };
  mcp_context?: { server_name: string; tool_name: string };
}

/** The MCP server (and the server's name of the tool) of an MCP tool's event, when the agent says. */
function mcpOf(body: SnakeToolEvent): HookToolCall['mcp'] {
  if (body.mcp_context) return { server: body.mcp_context.server_name, tool: body.mcp_context.tool_name };
  return body.mcp_server ? { server: body.mcp_server.name } : undefined;
}

function snakeCall(body: SnakeToolEvent): HookToolCall {
  const mcp = mcpOf(body);
  return {
    cliSessionId: body.session_id,
    cwd: body.cwd,
    tool: body.tool_name,
    input: body.tool_input,
    toolUseId: body.tool_use_id ?? null,
    agentId: body.agent_id ?? null,
    ...(mcp ? { mcp } : {}),
  };
}

/** Every agent's tool events, lower-cased (Copilot's camelCase names are Claude's). */
const TOOL_EVENT_NAMES = new Set(['pretooluse', 'posttooluse', 'beforetool', 'aftertool']);

/**
 * A Claude Code or Gemini CLI body: a tool event named as such must be one in full, or it is
 * refused (never taken as "other"); so is one named as another agent's or in another case
 * (`preToolUse`, `BeforeTool` at Claude's endpoint), which a hook misconfigured by hand sends:
 * answered `{}`, its tool would run ungoverned (docs/agent-hooks.md, "The endpoint").
 */
function snakeEvent(body: Record<string, unknown>, format: 'claude' | 'gemini'): ParsedHook {
  const [preName, postName, what] =
    format === 'claude' ? ['PreToolUse', 'PostToolUse', 'Claude Code hook input'] : ['BeforeTool', 'AfterTool', 'Gemini CLI hook input'];
  const name = body.hook_event_name;
  if (typeof name === 'string' && name !== preName && name !== postName && TOOL_EVENT_NAMES.has(name.toLowerCase())) {
    return {
      problem: `Not a ${what}: hook_event_name: ${JSON.stringify(name)} is no tool event of this agent; its tool events are ${preName} and ${postName}.`,
    };
  }
  if (name === preName) {
    const pre = (format === 'claude' ? claudePreToolUseSchema : geminiBeforeToolSchema).safeParse(body);
    return pre.success ? { format, event: { kind: 'pre', call: snakeCall(pre.data) } } : problemOf(pre.error, what);
  }
  if (name === postName) {
    const post = (format === 'claude' ? claudePostToolUseSchema : geminiAfterToolSchema).safeParse(body);
    if (!post.success) return problemOf(post.error, what);
    const durationMs = 'duration_ms' in post.data && typeof post.data.duration_ms === 'number' ? post.data.duration_ms : null;
    return { format, event: { kind: 'post', call: snakeCall(post.data), response: post.data.tool_response, durationMs } };
  }
  const other = otherHookEventSchema.safeParse(body);
  return other.success ? { format, event: { kind: 'other', cliSessionId: other.data.session_id ?? null } } : problemOf(other.error, what);
}

/**
 * Copilot's `toolArgs`: an object, or a JSON text of one (anything else is kept as `{ args }`), and whether that
 * text may hold a NUL or a lone surrogate. The text is read as a body is (api/middleware/json-body.ts), which the
 * body's own checks cannot do for it: nested 5,000 levels deep it was a 500, and one a body would refuse (too deep,
 * a number past the double range) is kept as its text.
 */
function copilotArgs(args: unknown): { input: Record<string, unknown>; maybeUnstorable: boolean } {
  if (isObject(args)) return { input: args, maybeUnstorable: false };
  if (typeof args !== 'string' || args === '') return { input: {}, maybeUnstorable: false };
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return { input: { args }, maybeUnstorable: false };
  }
  const facts = jsonBodyFacts(Buffer.from(args, 'utf8'), parsed);
  if ('problem' in facts) return { input: { args }, maybeUnstorable: false };
  return { input: isObject(parsed) ? parsed : { args: parsed }, maybeUnstorable: facts.maybeUnstorable };
}

function copilotEvent(body: Record<string, unknown>): ParsedHook {
  if ('toolName' in body) {
    const tool = copilotToolEventSchema.safeParse(body);
    if (!tool.success) return problemOf(tool.error, 'Copilot CLI hook input');
    const args = copilotArgs(tool.data.toolArgs);
    const sent: HookToolCall = {
      cliSessionId: tool.data.sessionId,
      cwd: tool.data.cwd,
      tool: tool.data.toolName,
      input: args.input,
      toolUseId: null,
      agentId: null,
    };
    const call = args.maybeUnstorable ? recordableCall(sent) : sent;
    return 'toolResult' in body
      ? { format: 'copilot', event: { kind: 'post', call, response: tool.data.toolResult, durationMs: null } }
      : { format: 'copilot', event: { kind: 'pre', call } };
  }
  const other = copilotOtherEventSchema.safeParse(body);
  return other.success
    ? { format: 'copilot', event: { kind: 'other', cliSessionId: other.data.sessionId } }
    : problemOf(other.error, 'Copilot CLI hook input');
}

function eventOf(agent: HookAgent, body: unknown): ParsedHook {
  if (!isObject(body)) return { problem: 'A hook input is a JSON object.' };
  if (agent === 'claude-code') return snakeEvent(body, 'claude');
  if (agent === 'gemini') return snakeEvent(body, 'gemini');
  return 'hook_event_name' in body ? snakeEvent(body, 'claude') : copilotEvent(body);
}

/**
 * The hook event a body reports, for the agent whose endpoint received it (docs/agent-hooks.md,
 * "The endpoint"): Claude Code's and Gemini CLI's snake_case input, Copilot CLI's camelCase one
 * (or Claude's format, which Copilot also speaks: then answered in Claude's format), or a problem
 * (422) for JSON that is no hook input of that agent. A tool event's call is made recordable
 * (core/hooks/recordable-call.ts) when the body's bytes showed it may hold a NUL or a lone
 * surrogate (`maybeUnstorable`, api/middleware/json-body.ts): only then is it walked for one.
 */
export function hookEventOf(agent: HookAgent, body: unknown, maybeUnstorable = false): ParsedHook {
  const parsed = eventOf(agent, body);
  if (!maybeUnstorable || !('event' in parsed) || parsed.event.kind === 'other') return parsed;
  return { ...parsed, event: { ...parsed.event, call: recordableCall(parsed.event.call) } };
}
