import type { AgentCallApprovals, HeldCallState } from './agent-call-approvals.js';

/** How often a held call looks at its row: a person's decision reaches the agent within this. */
export const APPROVAL_POLL_MS = 250;

export interface AwaitCallApprovalDeps {
  approvals: Pick<AgentCallApprovals, 'state' | 'settle'>;
  now(): Date;
  sleep(ms: number): Promise<void>;
}

const ENDED_REASON = 'the agent session ended while the call was held';

/**
 * Holds a gateway call until it is decided (docs/mcp-gateway.md, "Asking a person"): by a person,
 * by its deadline passing (`timed_out`) or by its session ending (`session_ended`: closed,
 * cancelled, expired, its owner deactivated or its agent key revoked). The row is the one place
 * the decision lives, so a decision made on any process reaches the held request, and a late
 * approval loses to the timeout in the same statement that would record it. Each look reads the
 * call's state and its session's, never its arguments.
 *
 * An approval is acted on only while the session is still live when it is read: a person's
 * decision is ordered with the session's end in the database (postgres-agent-call-approvals.ts),
 * and a session that ended after an approval but before the call ran refuses it as ended.
 */
export async function awaitCallApproval(deps: AwaitCallApprovalDeps, id: string): Promise<HeldCallState> {
  for (;;) {
    const now = deps.now();
    const held = await deps.approvals.state(id, now);
    if (!held) throw new Error(`held call ${id} vanished`);
    if (held.decision === 'approved' && !held.session_live) return { ...held, decision: 'session_ended', reason: ENDED_REASON };
    if (held.decision) return held;
    const ended = !held.session_live;
    if (ended || now.getTime() >= Date.parse(held.deadline)) {
      await deps.approvals.settle(
        id,
        ended ? 'session_ended' : 'timed_out',
        ended ? ENDED_REASON : 'no one decided before the deadline',
        now,
      );
      continue;
    }
    await deps.sleep(Math.min(APPROVAL_POLL_MS, Math.max(1, Date.parse(held.deadline) - now.getTime())));
  }
}
