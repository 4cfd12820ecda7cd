import type { DenialReason } from '../executions/execution.js';
import type { AgentCallApproval } from './agent-call-approvals.js';

/** The person who approved a held call, as its entry and certificate name them. */
export interface CallApprover {
  id: string;
  name: string | null;
}

/** The person who denied a held call, and the words they gave, as its entry and certificate name them. */
export interface CallDenier extends CallApprover {
  reason: string | null;
}

/** Why a held call was not made, as the agent reads it (`detail`) and its entry records it. */
export interface HeldCallDenial {
  reason: DenialReason;
  capability: string;
  detail: string;
}

/**
 * What a person's decision, or its deadline, made of a held call (docs/mcp-gateway.md, "Asking a
 * person"), for the gateway and the coding agents' hooks alike: approved by whom, or denied, by
 * whom and why when a person denied it. A call held where no one can be asked (`held` null) is
 * denied as timed out.
 */
export function heldCallOutcome(
  held: Pick<AgentCallApproval, 'capability' | 'deadline' | 'decision' | 'decided_by' | 'decided_by_name' | 'reason'> | null,
  capability: string,
): { approvedBy: CallApprover } | { denial: HeldCallDenial; deniedBy: CallDenier | null } {
  if (!held) return { denial: { reason: 'approval_timed_out', capability, detail: 'no one can be asked here' }, deniedBy: null };
  if (held.decision === 'approved' && held.decided_by) return { approvedBy: { id: held.decided_by, name: held.decided_by_name } };
  if (held.decision === 'denied') {
    const who = held.decided_by_name ?? held.decided_by ?? 'an approver';
    return {
      denial: {
        reason: 'denied_by_approver',
        capability: held.capability,
        detail: `${who} denied it: ${held.reason ?? 'no reason given'}`,
      },
      // A decider whose account was deleted since is no longer known (decided_by is set null).
      deniedBy: held.decided_by ? { id: held.decided_by, name: held.decided_by_name, reason: held.reason } : null,
    };
  }
  return {
    denial: { reason: 'approval_timed_out', capability: held.capability, detail: `no APPROVER or ADMIN decided it by ${held.deadline}` },
    deniedBy: null,
  };
}
