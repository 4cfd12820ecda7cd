import { MAX_RECORDED_DEPTH } from '../json-value-holds.js';
import type { HookToolCall } from './hook-call.js';
import { toolAction, type ToolAction } from './tool-action.js';

/** Why an unrecordable call (recordable-call.ts) is refused, as the agent reads it. */
const UNRECORDABLE = `the call holds a NUL or a lone UTF-16 surrogate (or nests past ${MAX_RECORDED_DEPTH} levels): it cannot be recorded as sent`;

/**
 * A call's ToolAction, worked out once per call: a pre reads it to open its call ahead
 * (open-ahead.ts) and again to decide (pre-tool-use.ts), and reading a long command line costs
 * tens of milliseconds. Keyed by the call object, so it goes with the request.
 */
const actions = new WeakMap<HookToolCall, ToolAction>();

/** The call's ToolAction, its paths read from its `cwd` and made relative to its session's `root` (one root per session, so per call). */
export function actionOfCall(call: HookToolCall, root: string): ToolAction {
  let action = actions.get(call);
  if (!action) {
    action = toolAction(call.tool, call.input, call.cwd, call.mcp, root);
    // Refused before anything else of it is judged, as the gateway refuses such arguments: what would be decided on
    // (its storable form) is not what the agent sent.
    if (call.unrecordable) action = { ...action, malformed: UNRECORDABLE };
    actions.set(call, action);
  }
  return action;
}
