import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from 'zod-openapi';
import { z } from 'zod';
import { errorSchema, validationErrorSchema } from '../schemas/error-schemas.js';
import {
  claudeHookAnswerSchema,
  claudeHookInputSchema,
  copilotHookAnswerSchema,
  copilotHookInputSchema,
  geminiHookAnswerSchema,
  geminiHookInputSchema,
} from '../schemas/hook-schemas.js';
import { errorResponse } from '../openapi-document.js';

const detail = (description: string) => ({ description, content: { 'application/json': { schema: errorSchema } } });

const COMMON =
  "Authorization: `Bearer <agent session token | repository agent key>`. With a key, the agent's own session id opens a governed agent session on its first call and continues it afterwards. " +
  "A pre-tool event is decided (shell `shell:exec`, reads `fs:read:<path>`, writes `fs:write:<path>`, web `network:<host>`, MCP `mcp:<server>/<tool>`, sub-agents `agent:spawn`; the policy's `tool_rules` and `ask`): refused calls are recorded at once with an `action_denied` certificate; " +
  "a call under `ask` is held until an APPROVER or ADMIN decides (GET /agent-calls/pending) or the timeout denies it, never answered `ask`. A post-tool event completes the allowed call's record (SHA-256 of the redacted response, duration, `action_safe` certificate). " +
  'Other events are answered `{}`. See docs/agent-hooks.md.';

function operation(agent: string, summary: string, input: z.ZodType, output: z.ZodType, events: string): ZodOpenApiOperationObject {
  return {
    summary,
    description: `${events} ${COMMON}`,
    tags: ['mcp'],
    // The bearer here is an agent session token or a repository agent key, not an API key.
    security: [{ bearer: [] }],
    operationId: `postHooks${agent}`,
    requestBody: { required: true, content: { 'application/json': { schema: input } } },
    responses: {
      200: {
        description: "The verdict in the agent's own format, or `{}` (no opinion, or a post recorded).",
        content: { 'application/json': { schema: output } },
      },
      400: errorResponse(400, 'The body is not JSON (or empty).'),
      401: errorResponse(401, 'No token, or one that is neither an agent session token nor an active agent key.'),
      404: detail('The session no longer exists.'),
      413: errorResponse(413, 'Body over 8 MiB.'),
      422: {
        description:
          'JSON that is no hook input of that agent (`{detail}` names the field); or, as a ValidationError, JSON nested deeper than 100 levels or holding a number past the double range. A tool call holding a NUL or a lone surrogate is no 422: its pre is denied `invalid_arguments` and recorded.',
        content: { 'application/json': { schema: z.union([errorSchema, validationErrorSchema]) } },
      },
      429: errorResponse(429),
      500: errorResponse(500),
      503: errorResponse(503),
    },
  };
}

/** The hook endpoints' entries of /openapi.json (served by api/hooks/hook-endpoint.ts). */
export function hookOpenApi(): ZodOpenApiPathsObject {
  return {
    '/api/v1/hooks/claude-code': {
      post: operation(
        'ClaudeCode',
        'Claude Code hook (PreToolUse, PostToolUse)',
        claudeHookInputSchema,
        claudeHookAnswerSchema,
        "Claude Code's http (or command) hook input; answers `hookSpecificOutput.permissionDecision` allow or deny.",
      ),
    },
    '/api/v1/hooks/copilot': {
      post: operation(
        'Copilot',
        'GitHub Copilot CLI hook (preToolUse, postToolUse)',
        copilotHookInputSchema,
        copilotHookAnswerSchema.or(claudeHookAnswerSchema),
        "Copilot CLI's camelCase input (a post carries `toolResult`); answers `permissionDecision`. A Claude-format body is answered in Claude's format.",
      ),
    },
    '/api/v1/hooks/gemini': {
      post: operation(
        'Gemini',
        'Gemini CLI hook (BeforeTool, AfterTool)',
        geminiHookInputSchema,
        geminiHookAnswerSchema,
        "Gemini CLI's command hook input (through `shipgate hook gemini`); answers `decision` allow, or deny with `reason`.",
      ),
    },
  };
}
