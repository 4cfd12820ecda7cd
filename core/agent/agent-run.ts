import { isForbidden } from '../policies/is-forbidden.js';
import type { Certificate } from '../certificates/types.js';
import type { Execution, ToolCallEntry } from '../executions/execution.js';
import { capabilityMatches } from '../policies/capability-matches.js';
import { promptSize, type PromptSize } from './budget.js';
import { buildSystemPrompt } from './build-system-prompt.js';
import type { Governance } from './governance.js';
import type { RunState, TurnStep } from './journal.js';
import type { ChatMessage, ToolCallRequest, ToolDefinition } from './provider.js';
import type { RuntimeDeps } from './runtime-deps.js';
import { BUILT_IN_TOOLS } from './tools/built-in-tools.js';
import { toolDefinition, type Tool } from './tools/tool.js';
import { toolsByName } from './tools/tools-by-name.js';

/** One run in memory: what was loaded, kept in step with every write to the journal. */
export interface AgentRun {
  deps: RuntimeDeps;
  governance: Governance;
  state: RunState;
  execution: Execution;
  /** Read-only outside appendMessage, the one place it grows, which keeps `prompt` in step. */
  readonly transcript: readonly ChatMessage[];
  /** The next provider request's estimated input tokens. */
  prompt: PromptSize;
  toolCalls: ToolCallEntry[];
  certificates: Certificate[];
  costCents: number;
  /**
   * The latest turn while it is in the transcript and the cost but not yet in the journal: it
   * asked for tool calls and is recorded with the first of them (record-turn-unless-carried.ts).
   */
  unrecordedTurn: TurnStep | null;
  /** The execution's budget, capped by the policy's maximum. */
  budgetCents: number;
  /** Every tool by each name a call may use (its name and aliases). */
  tools: ReadonlyMap<string, Tool>;
  /** Tools offered to the model, each under its name only: those whose capability the execution holds. */
  definitions: ToolDefinition[];
  system: string;
}

function grantedTools(tools: readonly Tool[], state: RunState): Tool[] {
  const held = (capability: string) => state.execution.permissions.some((p) => capabilityMatches(p, capability));
  const forbidden = (capability: string) => isForbidden(state.policy.forbidden, capability);
  return tools.filter((tool) => held(tool.capability) && !forbidden(tool.capability));
}

export function createAgentRun(deps: RuntimeDeps, state: RunState, governance: Governance): AgentRun {
  const { execution, policy } = state;
  const tools = deps.tools ?? BUILT_IN_TOOLS;
  // The task is the first user message, verbatim; a journal may or may not store it.
  const transcript: ChatMessage[] =
    state.transcript[0]?.role === 'user' ? [...state.transcript] : [{ role: 'user', content: execution.task }, ...state.transcript];
  const budgetCents = policy.max_budget_cents > 0 ? Math.min(execution.budget_cents, policy.max_budget_cents) : execution.budget_cents;
  const system = buildSystemPrompt(state, budgetCents);
  const definitions = grantedTools(tools, state).map(toolDefinition);
  return {
    deps,
    governance,
    state,
    execution,
    transcript,
    prompt: promptSize({ system, tools: definitions }, transcript),
    toolCalls: [...execution.tool_calls],
    certificates: [...execution.certificates],
    costCents: execution.cost_cents,
    unrecordedTurn: null,
    budgetCents,
    tools: toolsByName(tools),
    definitions,
    system,
  };
}

/** The last assistant turn's tool calls that have no answer yet (after a crash mid-turn, some do). */
export function pendingToolCalls(run: AgentRun): ToolCallRequest[] {
  const lastTurn = run.transcript.findLastIndex((m) => m.role === 'assistant');
  const turn = run.transcript[lastTurn];
  if (!turn || turn.role !== 'assistant') return [];
  const answered = new Set(run.transcript.slice(lastTurn + 1).flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : [])));
  return turn.tool_calls.filter((call) => !answered.has(call.id));
}

/** Adds a turn or an answer to the run's transcript. */
export function appendMessage(run: AgentRun, message: ChatMessage): void {
  (run.transcript as ChatMessage[]).push(message); // created mutable by createAgentRun
  run.prompt.add(message);
}

export function nextSeq(run: AgentRun): number {
  return run.toolCalls.reduce((max, entry) => Math.max(max, entry.seq), 0) + 1;
}

/** Digest of the newest certificate of this execution: the next one's `prev`. */
export function lastCertificateDigest(run: AgentRun): string | null {
  return run.certificates.at(-1)?.digest ?? null;
}
