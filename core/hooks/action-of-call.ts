import type { HookToolCall } from './hook-call.js';
import { toolAction, type ToolAction } from './tool-action.js';

/**
 * A call's ToolAction, worked out once per call: a pre reads it to open its call ahead
 * (open-ahead.ts) and again to decide (pre-tool-use.ts), and reading a long command line costs
 * tens of milliseconds. Keyed by the call object, so it goes with the request.
 */
const actions = new WeakMap<HookToolCall, ToolAction>();

export function actionOfCall(call: HookToolCall): ToolAction {
  let action = actions.get(call);
  if (!action) {
    action = toolAction(call.tool, call.input, call.cwd, call.mcp);
    actions.set(call, action);
  }
  return action;
}
