import type { AgentCallApproval, AgentCallApprovals } from './agent-call-approvals.js';

/** How often a held call looks at its row: a person's decision reaches the agent within this. */
export const APPROVAL_POLL_MS = 250;

export interface AwaitCallApprovalDeps {
  approvals: Pick<AgentCallApprovals, 'get' | 'decide'>;
  /** Whether the call's agent session is still open (not closed, cancelled, expired). */
  sessionOpen(): Promise<boolean>;
  now(): Date;
  sleep(ms: number): Promise<void>;
}

/**
 * Holds a gateway call until it is decided (docs/mcp-gateway.md, "Asking a person"): by a person,
 * by its deadline passing (`timed_out`) or by its session ending (`session_ended`). The row is
 * the one place the decision lives, so a decision made on any process reaches the held request,
 * and a late approval loses to the timeout in the same statement that would record it.
 */
export async function awaitCallApproval(deps: AwaitCallApprovalDeps, id: string): Promise<AgentCallApproval> {
  for (;;) {
    const approval = await deps.approvals.get(id);
    if (!approval) throw new Error(`held call ${id} vanished`);
    if (approval.decision) return approval;
    const now = deps.now();
    const ended = !(await deps.sessionOpen());
    if (ended || now.getTime() >= Date.parse(approval.deadline)) {
      const decided = await deps.approvals.decide(
        id,
        ended ? 'session_ended' : 'timed_out',
        null,
        ended ? 'the agent session ended while the call was held' : 'no one decided before the deadline',
        now,
      );
      if (decided) return decided.approval;
      continue;
    }
    await deps.sleep(Math.min(APPROVAL_POLL_MS, Math.max(1, Date.parse(approval.deadline) - now.getTime())));
  }
}
