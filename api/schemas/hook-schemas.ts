import { z } from 'zod';

/**
 * The hook inputs of Claude Code, GitHub Copilot CLI and Gemini CLI, and shipgate's answers in
 * each one's format (docs/agent-hooks.md, "The endpoint"). Inputs keep fields shipgate does not
 * read (`.loose()`): the agents add fields between versions.
 */

const sessionId = z.string().min(1).max(200);
const toolName = z.string().min(1).max(200);
const cwd = z.string().max(4096).meta({ description: 'The working directory: the repository root paths are made relative to.' });
const toolInput = z.record(z.string(), z.unknown()).meta({ description: "The tool's arguments, as the model gave them." });
const callId = z.string().min(1).max(200);

/** Claude Code's (and Gemini CLI's) fields common to every tool event. */
const snakeToolEvent = {
  session_id: sessionId,
  cwd,
  tool_name: toolName,
  tool_input: toolInput,
  tool_use_id: callId.optional().meta({ description: "The call's id: a post completes the pre of the same id." }),
  agent_id: z.string().max(200).optional().meta({ description: 'Set on the calls of a sub-agent.' }),
  agent_type: z.string().max(200).optional(),
  mcp_server: z
    .object({ name: z.string().min(1).max(200) })
    .loose()
    .optional()
    .meta({ description: "Claude Code's MCP tools: the server." }),
  mcp_context: z
    .object({ server_name: z.string().min(1).max(200), tool_name: z.string().min(1).max(200) })
    .loose()
    .optional()
    .meta({ description: "Gemini CLI's MCP tools: the server, and the server's own name of the tool." }),
};

export const claudePreToolUseSchema = z
  .object({ ...snakeToolEvent, hook_event_name: z.literal('PreToolUse') })
  .loose()
  .meta({ id: 'ClaudeCodePreToolUse' });

export const claudePostToolUseSchema = z
  .object({
    ...snakeToolEvent,
    hook_event_name: z.literal('PostToolUse'),
    tool_response: z.unknown().meta({ description: 'What the tool answered; its redacted SHA-256 is recorded.' }),
    duration_ms: z.number().min(0).max(1e9).optional(),
  })
  .loose()
  .meta({ id: 'ClaudeCodePostToolUse' });

/** Any other event of Claude Code or Gemini CLI (SessionStart, Stop, BeforeModel, ...): acknowledged with no opinion. */
export const otherHookEventSchema = z
  .object({ hook_event_name: z.string().min(1).max(200), session_id: sessionId.optional() })
  .loose()
  .meta({ id: 'OtherHookEvent' });

export const claudeHookInputSchema = z
  .union([claudePreToolUseSchema, claudePostToolUseSchema, otherHookEventSchema])
  .meta({ id: 'ClaudeCodeHookInput' });

export const geminiBeforeToolSchema = z
  .object({ ...snakeToolEvent, hook_event_name: z.literal('BeforeTool') })
  .loose()
  .meta({ id: 'GeminiBeforeTool' });

export const geminiAfterToolSchema = z
  .object({ ...snakeToolEvent, hook_event_name: z.literal('AfterTool'), tool_response: z.unknown() })
  .loose()
  .meta({ id: 'GeminiAfterTool' });

export const geminiHookInputSchema = z
  .union([geminiBeforeToolSchema, geminiAfterToolSchema, otherHookEventSchema])
  .meta({ id: 'GeminiHookInput' });

/** Copilot CLI's tool events (camelCase); a post carries `toolResult`. `toolArgs` is a JSON string or an object. */
export const copilotToolEventSchema = z
  .object({
    sessionId,
    cwd,
    timestamp: z.union([z.number(), z.string()]).optional(),
    toolName,
    toolArgs: z.union([z.string().max(1024 * 1024), z.record(z.string(), z.unknown())]).optional(),
    toolResult: z.unknown().optional().meta({ description: 'Present on postToolUse: `resultType`, `textResultForLlm`.' }),
  })
  .loose()
  .meta({ id: 'CopilotToolEvent' });

/** Any other Copilot CLI event (sessionStart, userPromptSubmitted, ...): acknowledged with no opinion. */
export const copilotOtherEventSchema = z.object({ sessionId, cwd: cwd.optional() }).loose().meta({ id: 'CopilotOtherEvent' });

export const copilotHookInputSchema = z
  .union([copilotToolEventSchema, claudeHookInputSchema, copilotOtherEventSchema])
  .meta({ id: 'CopilotHookInput', description: "Copilot CLI's camelCase input, or Claude Code's format (answered in Claude's format)." });

const decision = z.enum(['allow', 'deny']);

export const claudeHookAnswerSchema = z
  .object({
    hookSpecificOutput: z
      .object({ hookEventName: z.literal('PreToolUse'), permissionDecision: decision, permissionDecisionReason: z.string() })
      .optional(),
  })
  .meta({ id: 'ClaudeCodeHookAnswer', description: 'For PreToolUse, the decision (never `ask`); `{}` for any other event.' });

export const copilotHookAnswerSchema = z
  .object({ permissionDecision: decision.optional(), permissionDecisionReason: z.string().optional() })
  .meta({ id: 'CopilotHookAnswer', description: 'For preToolUse, the decision; `{}` for a post or any other event.' });

export const geminiHookAnswerSchema = z
  .object({ decision: decision.optional(), reason: z.string().optional() })
  .meta({ id: 'GeminiHookAnswer', description: 'For BeforeTool, `allow`, or `deny` with a reason; `{}` for any other event.' });
