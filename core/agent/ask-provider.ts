import { acceptProviderResponse } from './accept-provider-response.js';
import { appendMessage, type AgentRun } from './agent-run.js';
import { MAX_OUTPUT_TOKENS, reservationCents, usageCents } from './budget.js';
import { callUnlessCancelled } from './call-unless-cancelled.js';
import { redactSecrets } from './output-rules.js';
import { ProviderError, type ChatMessage, type Provider, type ProviderResponse } from './provider.js';
import { failed, type RunEnd } from './run-end.js';
import type { ModelPrice } from './runtime-deps.js';

function providerFailure(run: AgentRun, error: unknown): RunEnd {
  const known = error instanceof ProviderError;
  const text = known
    ? `${error.message}${error.status ? ` (HTTP ${error.status})` : ''}`
    : `unexpected provider failure: ${(error as Error)?.message ?? String(error)}`;
  const overrides = run.state.apiKeyOverride ? [run.state.apiKeyOverride] : [];
  return failed('provider_error', redactSecrets(text, overrides));
}

/**
 * One provider turn: reserve its worst case against the remaining budget, ask (aborting if the
 * execution is cancelled meanwhile), price the reported usage, and record the turn (or hold
 * it for its first tool call's write). Returns how the run ends when it does, or null to go on.
 */
export async function askProvider(run: AgentRun, provider: Provider, model: string, price: ModelPrice): Promise<RunEnd | null> {
  const { deps, execution } = run;
  const request = {
    model,
    system: run.system,
    messages: [...run.transcript],
    tools: run.definitions,
    maxTokens: MAX_OUTPUT_TOKENS,
  };
  const reserved = reservationCents(price, run.prompt.tokens(), MAX_OUTPUT_TOKENS);
  const remaining = run.budgetCents - run.costCents;
  if (reserved > remaining) {
    return failed(
      'budget_exceeded',
      `The next provider call may cost up to ${reserved} cents; ${remaining} of the ${run.budgetCents}-cent budget remain.`,
    );
  }
  let response: ProviderResponse;
  try {
    const call = await callUnlessCancelled(
      () => deps.journal.isCancelled(execution.id),
      deps.cancelPollMs,
      (signal) => provider.complete({ ...request, signal }),
    );
    if (call.cancelled) return { status: 'cancelled' };
    response = call.value;
  } catch (error) {
    return providerFailure(run, error);
  }
  const accepted = acceptProviderResponse(response);
  if ('usageProblem' in accepted)
    return failed(
      'usage_missing',
      `${provider.name} reported ${accepted.usageProblem}, so the call's cost cannot be counted against the budget.`,
    );
  const { text, toolCalls, usage, stopReason } = accepted.response;
  const cost = usageCents(price, usage);
  const turn: ChatMessage & { role: 'assistant' } = { role: 'assistant', content: text, tool_calls: toolCalls };
  // A turn that asks for tool calls is recorded before or with its first call (handleToolCall).
  if (turn.tool_calls.length > 0) run.unrecordedTurn = { assistant: turn, costCents: cost };
  else await deps.journal.recordTurn(execution.id, turn, cost);
  appendMessage(run, turn);
  run.costCents += cost;
  deps.log('agent.turn', {
    execution_id: execution.id,
    cost_cents: cost,
    total_cents: run.costCents,
    tool_calls: turn.tool_calls.length,
    stop_reason: stopReason,
  });
  return null;
}
