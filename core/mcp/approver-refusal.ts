import type { AgentCallApproval } from './agent-call-approvals.js';

/**
 * Why `userId` may not decide a held call, or null (docs/mcp-gateway.md, "Asking a person"): the
 * approval must come from someone independent of the agent, so neither the session's owner nor
 * the creator of the agent key that opened it, nor, for a session a GitHub Actions workflow opened, the
 * person whose linked GitHub login triggered the run (`workflow_run.actor`), may decide (the route
 * already requires APPROVER or ADMIN).
 */
export function approverRefusal(
  approval: Pick<AgentCallApproval, 'owner_id' | 'agent_key_creator' | 'workflow_actor_id'>,
  userId: string,
): string | null {
  if (approval.owner_id === userId) return 'You own the agent session that made this call; another APPROVER or ADMIN must decide it.';
  if (approval.agent_key_creator === userId)
    return 'You created the agent key that opened this session; another APPROVER or ADMIN must decide it.';
  if (approval.workflow_actor_id === userId)
    return 'You triggered the GitHub Actions workflow run that opened this session; another APPROVER or ADMIN must decide it.';
  return null;
}
