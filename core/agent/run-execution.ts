import { createAgentRun, pendingToolCalls, type AgentRun } from './agent-run.js';
import { askProvider } from './ask-provider.js';
import { finishRun } from './finish-run.js';
import { GOVERNED, type Governance } from './governance.js';
import { handleToolCall } from './handle-tool-call.js';
import { priceFor } from './prices.js';
import { failed, type RunEnd } from './run-end.js';
import type { RuntimeDeps } from './runtime-deps.js';

/** Whether the agent attempted more tool calls than the policy allows (the entries count every attempt). */
function pastCallLimit(run: AgentRun): boolean {
  return run.toolCalls.length > run.state.policy.max_tool_calls;
}

/** Whether the recorded state already ends the run: over budget, over the call limit, or a final answer. */
function recordedEnd(run: AgentRun): RunEnd | null {
  if (run.costCents > run.budgetCents) {
    return failed('budget_exceeded', `The run cost ${run.costCents} cents, over its budget of ${run.budgetCents} cents.`);
  }
  // Counted over every call attempted, denied ones too: a model calling what it is denied must not go on for ever.
  if (pastCallLimit(run)) {
    return failed(
      'tool_call_limit',
      `The agent attempted more than the ${run.state.policy.max_tool_calls} tool calls policy '${run.state.policy.name}' allows.`,
    );
  }
  const last = run.transcript.at(-1);
  if (last?.role === 'assistant' && last.tool_calls.length === 0) return { status: 'completed', output: last.content ?? '' };
  return null;
}

async function drive(run: AgentRun): Promise<RunEnd> {
  const { deps, execution } = run;
  const { provider: providerName, model } = execution;
  // An agent session (docs/mcp-gateway.md) has no provider: its agent runs elsewhere, and no job runs it.
  if (!providerName || !model) return failed('provider_not_configured', 'This execution names no provider and model.');
  const provider = deps.providers(providerName, run.state.apiKeyOverride);
  if (!provider) return failed('provider_not_configured', `No API key is configured for provider '${providerName}'.`);
  const price = priceFor(deps.prices, model);
  if (!price)
    return failed('model_price_unknown', `Model '${model}' has no price, so its budget cannot be enforced; add it to ${deps.pricesHint}.`);
  for (;;) {
    // Answers every call of the last turn first: after a crash mid-turn, only the missing ones.
    for (const call of pendingToolCalls(run)) {
      await handleToolCall(run, call);
      if (pastCallLimit(run)) break;
    }
    const end = recordedEnd(run) ?? (await askProvider(run, provider, model, price));
    if (end) return end;
  }
}

/**
 * Runs (or resumes) one execution to its end (docs/workflows.md, "Governed agent executions"). Every step goes to the journal as it
 * happens; journal errors propagate so the queue retries the job, which resumes from there.
 */
export async function runExecution(deps: RuntimeDeps, executionId: string, governance: Governance = GOVERNED): Promise<void> {
  if (!(await deps.journal.start(executionId))) return;
  const run = createAgentRun(deps, await deps.journal.load(executionId), governance);
  await finishRun(run, await drive(run));
}
