import type { AgentRun } from './agent-run.js';
import type { ToolCallRequest } from './provider.js';

/**
 * Whether `call` can carry its turn into its own write: its tool runs in process (or there is no
 * such tool, so nothing runs at all), so the turn waits microseconds longer to be recorded
 * rather than a network round trip, and a worker dying meanwhile loses no more than it would
 * between the provider's answer and any write.
 */
function carriesItsTurn(run: AgentRun, call: ToolCallRequest): boolean {
  const tool = run.tools.get(call.name);
  return !tool || tool.inProcess === true;
}

/**
 * Before a tool call is verified: records the turn that asked for it on its own, unless the
 * call carries it (handleToolCall then records both in one write). A turn is held only until its
 * first call, so a tool that reaches outside the process never runs before its turn is recorded
 * and a resumed run answers that turn's calls instead of asking the provider again.
 * ARCHITECTURE.md, "Sending SQL".
 */
export async function recordTurnUnlessCarried(run: AgentRun, call: ToolCallRequest): Promise<void> {
  const turn = run.unrecordedTurn;
  if (!turn || carriesItsTurn(run, call)) return;
  await run.deps.journal.recordTurn(run.execution.id, turn.assistant, turn.costCents);
  run.unrecordedTurn = null;
}
