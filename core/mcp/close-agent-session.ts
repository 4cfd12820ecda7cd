import type { Certifier } from '../agent/certifier.js';
import { decideVerdict } from '../agent/decide-verdict.js';
import { answersBySeq } from '../agent/finish-run.js';
import type { ExecutionJournal } from '../agent/journal.js';
import { toolCallDigest } from '../certificates/tool-call-digest.js';
import type { AgentSessionStore } from './agent-session.js';
import { repostCoveredChecks } from './repost-covered-checks.js';

/** Why a session is ended by closing it: closed (by its owner or an ADMIN) or expired, or its owner was deactivated. */
export type SessionClosing = 'closed' | 'owner_deactivated';

/** What the execution record says of a session its owner's deactivation closed (docs/mcp-gateway.md, "Governed agent sessions"). */
const CLOSED_BY_DEACTIVATION = {
  code: 'owner_deactivated',
  message: 'Closed because its owner was deactivated: the session takes no further calls.',
} as const;

/**
 * Ends an agent session (closed by its owner, past its expiry, or its owner deactivated): the execution finishes as
 * `completed` with a verdict derived from its recorded calls, exactly as a run's is (a denied
 * call under a blocking policy makes it non_compliant), and an execution certificate covering
 * every entry, denied ones included; one its owner's deactivation closed records so as its `error`
 * (code `owner_deactivated`). A session already ended is left as it is (idempotent). Ending
 * non-compliant re-posts the check runs of the pull requests it may have covered (repost-covered-checks.ts).
 */
export async function closeAgentSession(
  deps: { journal: ExecutionJournal; certifier: Certifier; agentSessions: Pick<AgentSessionStore, 'coverageChanged'> },
  sessionId: string,
  why: SessionClosing = 'closed',
): Promise<void> {
  const state = await deps.journal.load(sessionId);
  const { execution, policy } = state;
  if (execution.status !== 'running') return;
  const { verdict, violations } = decideVerdict({
    policy,
    toolCalls: execution.tool_calls,
    toolAnswers: answersBySeq(state.transcript, execution.tool_calls),
    artifacts: execution.artifacts,
    output: null,
    costCents: execution.cost_cents,
    budgetCents: execution.budget_cents,
    errorCode: null,
  });
  const certificate = deps.certifier.certifyExecution({
    executionId: execution.id,
    output: '',
    verdict,
    violations,
    toolCallDigests: execution.tool_calls.map(toolCallDigest),
    costCents: execution.cost_cents,
    policy: execution.policy,
    upstream: [],
    prev: execution.certificates.at(-1)?.digest ?? null,
  });
  const error = why === 'owner_deactivated' ? CLOSED_BY_DEACTIVATION : null;
  await deps.journal.finish(sessionId, { status: 'completed', verdict, output: null, error, certificate, violations });
  await repostCoveredChecks(deps, sessionId, { ended: 'completed', verdict });
}
