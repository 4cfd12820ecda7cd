import type { ToolCallEntry } from '../executions/execution.js';
import type { ReadState } from '../mcp/session-call-queue.js';
import { HOOK_VERIFIED_PROPERTIES } from './check-tool-action.js';
import type { HookToolCall } from './hook-call.js';
import type { HookDeps, HookTerms } from './hook-ports.js';
import { recordHookEntry } from './record-hook-entry.js';
import { responseRecord } from './response-record.js';

/** What an approved call was shown to satisfy beyond the policy's checks. */
const APPROVED_PROPERTIES = [...HOOK_VERIFIED_PROPERTIES, 'approved_by_person'];

/** How a post ended: the call's entry recorded (its seq), or no open call it completes. */
export type PostOutcome = { recorded: number } | { unmatched: true };

/**
 * A coding agent's tool call after it ran (docs/agent-hooks.md, "Records"): completes the call
 * its pre hook allowed (by its tool_use_id, else the session's latest open call of that tool) as
 * an entry of the session's record, with the SHA-256 of the response redacted by the policy's
 * output rules, its duration and an `action_safe` certificate chained to the last one. Nothing is
 * recorded once the session's execution has its verdict (closed): the call stays incomplete.
 * `read` is the session's state read while authenticating, null for a post completing a call
 * this process allowed with the same credential (not authenticated again: hook-endpoint.ts).
 */
export async function postToolUse(
  deps: HookDeps,
  sessionId: string,
  read: ReadState | null,
  terms: HookTerms,
  call: HookToolCall,
  response: unknown,
  durationMs: number | null,
): Promise<PostOutcome> {
  const open = await deps.hookCalls.findOpen(sessionId, call.tool, call.toolUseId, call.agentId);
  if (!open) {
    deps.log('hooks.post_unmatched', { execution_id: sessionId, tool: call.tool, tool_use_id: call.toolUseId });
    return { unmatched: true };
  }
  const { digest: resultDigest, output } = responseRecord(terms.policy.output_rules, response);
  const elapsed = Math.max(0, Math.round(durationMs ?? deps.now().getTime() - Date.parse(open.requested_at)));
  const recorded = await recordHookEntry(deps, sessionId, read, (seq, prev) => {
    const certificate = deps.certifier.certifyToolCall({
      executionId: sessionId,
      seq,
      tool: open.tool,
      arguments: open.arguments,
      capability: open.capability,
      capabilities: [...terms.permissions],
      verifiedProperties: open.approved_by ? APPROVED_PROPERTIES : HOOK_VERIFIED_PROPERTIES,
      policy: terms.policyRef,
      resultDigest,
      ...(open.approved_by ? { approvedBy: open.approved_by } : {}),
      prev,
    });
    const entry: ToolCallEntry = {
      seq,
      call_id: open.call_id,
      tool: open.tool,
      arguments: open.arguments,
      capability: open.capability,
      verdict: 'allowed',
      reason: null,
      certificate_id: certificate.id,
      result_digest: resultDigest,
      output,
      duration_ms: elapsed,
      created_at: open.requested_at,
      ...(open.agent_id ? { agent_id: open.agent_id } : {}),
      ...(open.approved_by ? { approved_by: open.approved_by } : {}),
    };
    return { entry, certificate, answer: { role: 'tool', tool_call_id: open.call_id, content: output } };
  });
  if (!recorded) return { unmatched: true };
  deps.log('hooks.tool_call_completed', { execution_id: sessionId, seq: recorded.seq, tool: open.tool, duration_ms: elapsed });
  return { recorded: recorded.seq };
}
