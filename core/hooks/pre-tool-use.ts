import { canonicalDigest } from '../canonical-json.js';
import type { ToolCallEntry } from '../executions/execution.js';
import type { ReadState } from '../mcp/session-call-queue.js';
import { MAX_HELD_HOOK_CALLS, type HeldCallState } from '../mcp/agent-call-approvals.js';
import { nextCallNumber, sessionIsOpen, type AgentSessionCallState } from '../mcp/agent-session.js';
import { awaitCallApproval } from '../mcp/await-call-approval.js';
import { heldCallOutcome, type CallApprover, type CallDenier } from '../mcp/held-call-outcome.js';
import { repostCoveredChecks } from '../mcp/repost-covered-checks.js';
import { recordedArguments, recordedText } from '../agent/recorded-arguments.js';
import { DEFAULT_ASK_TIMEOUT_SECONDS } from '../policies/asked-capability.js';
import { checkToolAction, hookPropertiesBefore, type HookDenial } from './check-tool-action.js';
import type { HookToolCall, HookVerdict, NewHookCall } from './hook-call.js';
import { openCallOf } from './open-ahead.js';
import type { HookDeps, HookTerms } from './hook-ports.js';
import { recordHookEntry } from './record-hook-entry.js';
import { actionOfCall } from './action-of-call.js';

/** Logged when a call starts waiting for a person, at once (its request's line comes when it is decided). */
export const HELD_EVENT = 'hooks.tool_call_held';

const ENDED = 'This agent session has ended (closed, cancelled, expired, or its owner deactivated); the call was not made.';

/** What the agent reads of a refusal. */
export function denialText(denial: HookDenial): string {
  const what = [denial.capability, denial.detail].filter(Boolean).join(': ');
  return `shipgate DENIED: ${denial.reason}${what ? `: ${what}` : ''}`;
}

/**
 * Holds the call until a person decides it, its deadline passes or its session ends
 * (core/mcp/await-call-approval.ts). A session holds at most MAX_HELD_HOOK_CALLS at once, and no
 * more than its call limit (`max_tool_calls`) leaves room for, counting those it holds: past
 * either the call is refused at once (`tool_call_limit`, naming the limit), never held.
 */
async function hold(
  deps: HookDeps,
  session: AgentSessionCallState,
  call: HookToolCall,
  capability: string,
  timeoutSeconds: number,
): Promise<HeldCallState | { refused: HookDenial }> {
  const requestedAt = deps.now();
  const args = recordedArguments(call.input);
  // checkToolAction let the call through, so nextCallNumber <= max_tool_calls: room >= 1.
  const room = session.max_tool_calls - nextCallNumber(session) + 1;
  const asked = await deps.agentCallApprovals.askWithin(
    {
      execution_id: session.id,
      seq: session.next_seq,
      tool: call.tool,
      arguments: args,
      arguments_digest: canonicalDigest(args),
      capability: recordedText(capability),
      requested_at: requestedAt,
      deadline: new Date(requestedAt.getTime() + timeoutSeconds * 1000),
    },
    Math.min(MAX_HELD_HOOK_CALLS, room),
  );
  if (typeof asked !== 'string') {
    const detail =
      asked.held >= MAX_HELD_HOOK_CALLS
        ? `the session already holds ${asked.held} calls awaiting approval, the most it may hold at once (${MAX_HELD_HOOK_CALLS})`
        : `the session's max_tool_calls (${session.max_tool_calls}) counts its ${asked.held} calls awaiting approval`;
    return { refused: { reason: 'tool_call_limit', capability, detail } };
  }
  deps.log(HELD_EVENT, { execution_id: session.id, tool: call.tool, approval_id: asked });
  return awaitCallApproval({ approvals: deps.agentCallApprovals, now: deps.now, sleep: deps.sleep }, asked);
}

/**
 * Opens an allowed call (the one opened ahead with the credential, unless a person approved it):
 * it takes one of the session's calls, or is refused when concurrent calls took the last ones
 * since the session's state was read (`tool_call_limit`).
 */
async function openAllowed(
  deps: HookDeps,
  session: AgentSessionCallState,
  call: HookToolCall,
  capability: string,
  approvedBy: CallApprover | null,
  ahead: { call: NewHookCall; id: string | null } | null,
): Promise<HookDenial | null> {
  if (ahead?.id && !approvedBy) {
    deps.hookCalls.opened(ahead.call, ahead.id);
    return null;
  }
  const opened = await deps.hookCalls.open(openCallOf(session.id, call, capability, approvedBy, deps.now()));
  if (opened !== null) return null;
  return {
    reason: 'tool_call_limit',
    capability: null,
    detail: `the session's ${session.max_tool_calls} calls (max_tool_calls) are all taken`,
  };
}

/**
 * A coding agent's tool call before it runs (docs/agent-hooks.md, "How a call is decided"): the
 * session must be open; the call's capabilities, the policy's `tool_rules` and `ask` decide;
 * a held call waits for a person (or its deadline). A refused call is recorded at once with an
 * `action_denied` certificate in the session's chain; an allowed one is kept open until its post
 * hook completes it (post-tool-use.ts). `read` is the session's state read while authenticating.
 */
export async function preToolUse(
  deps: HookDeps,
  read: ReadState,
  terms: HookTerms,
  call: HookToolCall,
  ahead: { call: NewHookCall; id: string | null } | null = null,
): Promise<HookVerdict> {
  const session = read.state;
  const requestedAt = deps.now().toISOString();
  // A call opened ahead (open-ahead.ts) stays only if this decision allows it as it is.
  const discardAhead = async () => {
    if (ahead?.id) await deps.hookCalls.discard(ahead.id);
  };
  if (!sessionIsOpen(session, deps.now())) {
    await discardAhead();
    return { decision: 'deny', reason: ENDED };
  }
  const action = actionOfCall(call, await deps.rootOf(session.id, call.cwd));
  const check = checkToolAction(action, terms, nextCallNumber(session), session.max_tool_calls);
  let denial: HookDenial | null = 'denial' in check ? check.denial : null;
  let approvedBy: CallApprover | null = null;
  let deniedBy: CallDenier | null = null;
  if (!('allowed' in check)) await discardAhead();
  if ('ask' in check) {
    const held = await hold(deps, session, call, check.ask, terms.policy.ask_timeout_seconds ?? DEFAULT_ASK_TIMEOUT_SECONDS);
    if ('refused' in held) denial = held.refused;
    else if (held.decision === 'session_ended') return { decision: 'deny', reason: ENDED };
    else {
      const outcome = heldCallOutcome(held, check.ask);
      if ('approvedBy' in outcome) approvedBy = outcome.approvedBy;
      else ({ denial, deniedBy } = outcome);
    }
  }
  if (!denial) denial = await openAllowed(deps, session, call, action.capabilities[0], approvedBy, ahead);
  const chosen = denial?.capability ?? action.capabilities[0];
  const capability = chosen === null ? null : recordedText(chosen);
  const log = (verdict: string) =>
    deps.log('hooks.tool_call', { execution_id: session.id, tool: call.tool, verdict, reason: denial?.reason ?? null, capability });
  if (!denial) {
    log('allowed');
    return {
      decision: 'allow',
      reason: approvedBy ? `shipgate: approved by ${approvedBy.name ?? approvedBy.id}` : 'shipgate: allowed by policy',
    };
  }
  const refusal = denial;
  const callId = call.toolUseId ?? null;
  const args = recordedArguments(call.input);
  const recorded = await recordHookEntry(deps, session.id, read, (seq, prev) => {
    const certificate = deps.certifier.certifyDeniedToolCall({
      executionId: session.id,
      seq,
      tool: call.tool,
      arguments: args,
      reason: refusal.reason,
      capability,
      capabilities: [...terms.permissions],
      verifiedProperties: hookPropertiesBefore(refusal.reason),
      policy: terms.policyRef,
      prev,
      ...(deniedBy ? { deniedBy } : {}),
    });
    const entry: ToolCallEntry = {
      seq,
      call_id: callId ?? `hook-${seq}`,
      tool: call.tool,
      arguments: args,
      capability,
      verdict: 'denied',
      reason: refusal.reason,
      certificate_id: certificate.id,
      result_digest: null,
      output: null,
      duration_ms: 0,
      created_at: requestedAt,
      ...(call.agentId ? { agent_id: call.agentId } : {}),
      ...(deniedBy ? { denied_by: deniedBy } : {}),
    };
    return { entry, certificate, answer: { role: 'tool', tool_call_id: entry.call_id, content: denialText(refusal) } };
  });
  if (!recorded) return { decision: 'deny', reason: ENDED };
  log('denied');
  // A denial under a blocking policy shrinks what the session covers: its green check runs are
  // posted again, once per session in this process (the job coalesces repeats from elsewhere).
  if (deps.firstDenial(session.id)) await repostCoveredChecks(deps, session.id, { denied: terms.policy.denied_call_severity });
  return { decision: 'deny', reason: denialText(refusal) };
}
