import { isRecordableJson } from '../json-value-holds.js';
import { storableJson } from '../storable-text.js';
import type { HookToolCall } from './hook-call.js';

/**
 * The call as it can be recorded (docs/agent-hooks.md, "How a call is decided"): the call itself, or, when a field of
 * it holds what PostgreSQL cannot store (a NUL, a lone UTF-16 surrogate) or its input nests past the recorded depth,
 * its storable form (U+FFFD in their place) marked `unrecordable`. Such a pre is refused `invalid_arguments` and
 * recorded in that form, as the MCP gateway refuses such arguments (core/mcp/call-through-gateway.ts): answered 422
 * before, the agent's attempt left no trace in the session's record. Its fields all go, not only its input: a post's
 * are looked up, a key's run is found by its session id, and the decision reads its tool, cwd and ids.
 * The call's values come from a body whose depth was checked (at most 100 levels), so storableJson's recursion is bounded.
 */
export function recordableCall(call: HookToolCall): HookToolCall {
  if (isRecordableJson(call)) return call;
  return { ...(storableJson(call) as HookToolCall), unrecordable: true };
}
