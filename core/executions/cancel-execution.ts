import type { AgentSessionStore } from '../mcp/agent-session.js';
import { repostCoveredChecks } from '../mcp/repost-covered-checks.js';
import { FINISHED_STATUSES, type Execution } from './execution.js';
import type { ExecutionStore, ExecutionSummary } from './execution-store.js';

/**
 * Cancels an execution (queued or running -> cancelled; an ended one stays as it is) and answers
 * it as it is after the request, null when it does not exist. `before` is the execution as the
 * caller read it to decide it may cancel it. An agent session cancelled by this request covers
 * nothing any more: the check runs it may have made green are re-posted
 * (core/mcp/repost-covered-checks.ts). Cancelling one that had already ended changes nothing, so
 * it re-posts nothing.
 */
export async function cancelExecution(
  ports: { executions: Pick<ExecutionStore, 'cancel'>; agentSessions: Pick<AgentSessionStore, 'coverageChanged'> },
  before: Pick<ExecutionSummary, 'id' | 'kind' | 'status'>,
): Promise<Execution | null> {
  const execution = await ports.executions.cancel(before.id);
  if (execution?.kind === 'agent_session' && !FINISHED_STATUSES.includes(before.status)) {
    await repostCoveredChecks(ports, execution.id, { ended: execution.status, verdict: execution.verdict });
  }
  return execution;
}
