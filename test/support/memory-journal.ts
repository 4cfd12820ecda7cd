import type { FinishOutcome, ExecutionJournal, RunState, TurnStep } from '../../core/agent/journal.js';
import type { ChatMessage } from '../../core/agent/provider.js';
import type { Certificate } from '../../core/certificates/types.js';
import type { Artifact, ToolCallEntry } from '../../core/executions/execution.js';

type JournalMethod = 'recordTurn' | 'recordToolCall' | 'finish';

/**
 * An ExecutionJournal in memory, with the db journal's contract: every step atomic, the same
 * seq recorded twice is a no-op, finish is a no-op once finished. `crashOn` makes the n-th
 * call of a method throw before it records anything (a worker dying mid-run).
 */
export class MemoryJournal implements ExecutionJournal {
  private readonly runs = new Map<string, RunState & { outcome: FinishOutcome | null }>();
  private readonly calls: Record<JournalMethod, number> = { recordTurn: 0, recordToolCall: 0, finish: 0 };
  crashOn: { method: JournalMethod; nth: number } | null = null;
  cancelChecks = 0;

  add(state: RunState): string {
    this.runs.set(state.execution.id, { ...structuredClone(state), outcome: null });
    return state.execution.id;
  }

  /** The stored run as a test inspects it. */
  get(id: string): RunState & { outcome: FinishOutcome | null } {
    const run = this.runs.get(id);
    if (!run) throw new Error(`no run ${id}`);
    return run;
  }

  cancel(id: string): void {
    const { execution } = this.get(id);
    if (execution.status === 'queued' || execution.status === 'running') execution.status = 'cancelled';
  }

  private step(method: JournalMethod): void {
    this.calls[method] += 1;
    if (this.crashOn?.method === method && this.crashOn.nth === this.calls[method]) {
      this.crashOn = null;
      throw new Error(`simulated crash in ${method}`);
    }
  }

  async load(id: string): Promise<RunState> {
    const { outcome: _outcome, ...state } = structuredClone(this.get(id));
    return state;
  }

  async start(id: string): Promise<boolean> {
    const { execution } = this.get(id);
    if (execution.status === 'queued') {
      execution.status = 'running';
      execution.started_at = new Date().toISOString();
    }
    return execution.status === 'running';
  }

  async recordTurn(id: string, assistant: ChatMessage & { role: 'assistant' }, costCents: number): Promise<void> {
    this.step('recordTurn');
    this.appendTurn(id, { assistant, costCents });
  }

  private appendTurn(id: string, { assistant, costCents }: TurnStep): void {
    const run = this.get(id);
    if (run.execution.verdict !== null) return; // as the PostgreSQL journal: a certified run takes no more steps
    run.transcript.push(structuredClone(assistant));
    run.execution.cost_cents += costCents;
  }

  async recordToolCall(
    id: string,
    entry: ToolCallEntry,
    answer: ChatMessage & { role: 'tool' },
    certificate: Certificate | null,
    artifact: Artifact | null,
    turn?: TurnStep,
  ): Promise<void> {
    this.step('recordToolCall');
    if (turn) this.appendTurn(id, turn);
    const run = this.get(id);
    if (run.execution.verdict !== null || run.execution.tool_calls.some((e) => e.seq === entry.seq)) return;
    run.execution.tool_calls.push(structuredClone(entry));
    run.transcript.push(structuredClone(answer));
    if (certificate) run.execution.certificates.push(structuredClone(certificate));
    if (artifact) run.execution.artifacts.push(structuredClone(artifact));
  }

  async finish(id: string, outcome: FinishOutcome): Promise<void> {
    this.step('finish');
    const run = this.get(id);
    const e = run.execution;
    if (e.status !== 'queued' && e.status !== 'running') return;
    Object.assign(e, {
      status: outcome.status,
      verdict: outcome.verdict,
      output: outcome.output,
      error: outcome.error,
      finished_at: new Date().toISOString(),
    });
    if (outcome.certificate) e.certificates.push(structuredClone(outcome.certificate));
    run.outcome = structuredClone(outcome);
    delete run.apiKeyOverride;
  }

  async isCancelled(id: string): Promise<boolean> {
    this.cancelChecks += 1;
    return this.get(id).execution.status === 'cancelled';
  }
}
