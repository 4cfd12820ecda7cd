import { recordedArguments, recordedText } from '../agent/recorded-arguments.js';
import { checkToolAction } from './check-tool-action.js';
import type { HookTerms } from './hook-ports.js';
import type { HookToolCall, NewHookCall } from './hook-call.js';
import { actionOfCall } from './action-of-call.js';
import { randomUUID } from 'node:crypto';

/** The row of an allowed call awaiting its post (its id: the agent's tool_use_id, else one made for it). */
export function openCallOf(
  sessionId: string,
  call: HookToolCall,
  capability: string,
  approvedBy: NewHookCall['approved_by'],
  now: Date,
): NewHookCall {
  return {
    execution_id: sessionId,
    call_id: call.toolUseId ?? `hook-${randomUUID()}`,
    tool: call.tool,
    agent_id: call.agentId,
    arguments: recordedArguments(call.input),
    capability: recordedText(capability),
    approved_by: approvedBy,
    requested_at: now,
  };
}

/**
 * The row a pre's call will have if allowed, when the session's policy alone allows it (no
 * missing capability, no rule, no `ask`), so it can be written with the request's credential in
 * one round trip (docs/agent-hooks.md, "How it is built"); null otherwise. What the policy cannot
 * see (the session open, its call limit, the rate) that statement checks before writing, and
 * pre-tool-use.ts decides with the state it read: a row it does not allow is discarded.
 */
export function openAhead(terms: HookTerms, root: string, sessionId: string, call: HookToolCall, now: Date): NewHookCall | null {
  const action = actionOfCall(call, root);
  const check = checkToolAction(action, terms, 1, Number.MAX_SAFE_INTEGER);
  return 'allowed' in check ? openCallOf(sessionId, call, action.capabilities[0], null, now) : null;
}
