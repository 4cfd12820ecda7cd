import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { ExecutionJournal } from '../../core/agent/journal.js';
import { runExecution } from '../../core/agent/run-execution.js';
import type { ExecutionStore, NewExecution } from '../../core/executions/execution-store.js';
import { fenceJournal, JournalFencedError } from '../../core/executions/fence-journal.js';
import { policyRef } from '../../core/policies/policy-digest.js';
import { defaultPolicy } from '../agent/support/agent-harness.js';
import { newExecution as newExecutionOf } from './support/execution-fixtures.js';
import { reportStep as reportStepOf } from './support/report-step.js';
import type { TestDatabase } from '../support/test-database.js';
import { openJournalDatabase } from './support/journal-database.js';
import { call, finalAnswer, toolTurn, type ScriptStep } from '../support/scripted-provider.js';
import { journalRuntime } from './support/journal-runtime.js';

const policy = defaultPolicy();
let database: TestDatabase;
let store: ExecutionStore;
let journal: ExecutionJournal;
let ownerId: string;

beforeAll(async () => {
  ({ database, store, journal, ownerId } = await openJournalDatabase(policy));
});
afterAll(async () => {
  await database.drop();
});

const newExecution = (overrides: Partial<NewExecution> = {}) => newExecutionOf(ownerId, policyRef(policy), overrides);

/** The real journal, failing the n-th call of one method before it writes (a worker dying there). */
function crashingJournal(method: 'recordTurn' | 'recordToolCall' | 'finish', nth: number): ExecutionJournal {
  let calls = 0;
  return {
    ...journal,
    [method]: async (...args: unknown[]) => {
      if (++calls === nth) throw new Error(`simulated crash in ${method}`);
      return (journal[method] as (...a: unknown[]) => Promise<void>)(...args);
    },
  };
}

const runtime = (steps: ScriptStep[], journalUsed: ExecutionJournal = journal) => journalRuntime(steps, journalUsed);

const report = (id: string) => call(id, 'write_report', { name: id, content: `report ${id}` });

// What every journal must do is the shared contract (test/executions/journal-contract.test.ts);
// this file holds what only the PostgreSQL journal promises: crash safety, atomic steps, round trips
// (and turn-durability.test.ts, when a turn's WAL is flushed).
describe('execution journal on PostgreSQL', () => {
  it('records a whole run: transcript, tool calls, artifacts, certificates, cost, and erases the key override', async () => {
    const created = await store.create(newExecution({ api_key: 'sk-override-123456' }), { enqueue: false });
    expect(created).toMatchObject({ status: 'queued', api_key_override: true, cost_cents: 0 });
    const sealed = await database.db('executions').where({ id: created.id }).first('api_key_ciphertext');
    expect(sealed.api_key_ciphertext).toEqual(expect.any(String));
    expect(sealed.api_key_ciphertext).not.toContain('sk-override');

    const { deps, provider } = runtime([toolTurn([report('c1'), report('c2')]), finalAnswer('Both stored.')]);
    await runExecution(deps, created.id);

    const done = (await store.get(created.id))!;
    expect(done).toMatchObject({
      status: 'completed',
      verdict: 'compliant',
      output: 'Both stored.',
      api_key_override: true,
      error: null,
      violations: [],
    });
    expect(done.cost_cents).toBeGreaterThan(0);
    expect(done.tool_calls.map((c) => [c.seq, c.call_id, c.verdict])).toEqual([
      [1, 'c1', 'allowed'],
      [2, 'c2', 'allowed'],
    ]);
    expect(done.tool_calls[0].arguments).toEqual({ name: 'c1', content: 'report c1' });
    expect(done.artifacts.map((a) => a.name)).toEqual(['c1', 'c2']);
    expect(done.certificates.map((c) => c.kind)).toEqual(['tool_call', 'tool_call', 'execution']);
    expect(done.tool_calls.map((c) => c.certificate_id)).toEqual([done.certificates[0].id, done.certificates[1].id]);
    expect(done.started_at).not.toBeNull();
    expect(done.finished_at).not.toBeNull();
    const after = await database.db('executions').where({ id: created.id }).first('api_key_ciphertext');
    expect(after.api_key_ciphertext).toBeNull();
    const state = await journal.load(created.id);
    expect(state.transcript.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
    expect(provider.requests).toHaveLength(2);
  });

  it('resumes after a crash between two tool calls without losing or duplicating a step', async () => {
    const { id } = await store.create(newExecution(), { enqueue: false });
    const first = runtime([toolTurn([report('c1'), report('c2'), report('c3')])], crashingJournal('recordToolCall', 2));
    await expect(runExecution(first.deps, id)).rejects.toThrow('simulated crash in recordToolCall');
    expect((await store.get(id))!).toMatchObject({ status: 'running', tool_calls: [{ seq: 1, call_id: 'c1' }] });

    const second = runtime([finalAnswer('All three stored.')]);
    await runExecution(second.deps, id);
    const done = (await store.get(id))!;
    expect(done.tool_calls.map((c) => [c.seq, c.call_id])).toEqual([
      [1, 'c1'],
      [2, 'c2'],
      [3, 'c3'],
    ]);
    expect(done.artifacts.map((a) => a.name)).toEqual(['c1', 'c2', 'c3']);
    expect(done.certificates.map((c) => c.kind)).toEqual(['tool_call', 'tool_call', 'tool_call', 'execution']);
    expect(done.status).toBe('completed');
    // The resumed request carried every answer exactly once.
    expect(second.provider.requests[0].messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id)).toEqual(['c1', 'c2', 'c3']);
    const rows = await database.db('execution_messages').where({ execution_id: id }).orderBy('idx').select('idx');
    expect(rows.map((r: { idx: number }) => r.idx)).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('each step in one statement', () => {
  async function running(): Promise<string> {
    const { id } = await store.create(newExecution(), { enqueue: false });
    await journal.start(id);
    await journal.recordTurn(id, { role: 'assistant', content: null, tool_calls: [report('c1'), report('c2')] }, 3);
    return id;
  }

  const reportStep = (id: string, seq: number, text: string) => reportStepOf(id, policy, seq, text);

  const transcriptOf = async (id: string) => (await journal.load(id)).transcript.map((m) => (m.role === 'tool' ? m.content : m.role));

  it('stores nothing of a step when any part of it cannot be stored', async () => {
    const id = await running();
    const first = reportStep(id, 1, 'first');
    await journal.recordToolCall(id, ...first);
    const [entry, answer, , artifact] = reportStep(id, 2, 'second');
    // The certificate id is taken already: the whole step fails, entry and answer included.
    await expect(journal.recordToolCall(id, entry, answer, first[2], artifact)).rejects.toThrow();
    // jsonb cannot hold a NUL character: the turn's cost is not counted without its message.
    await expect(journal.recordTurn(id, { role: 'assistant', content: 'nul \u0000', tool_calls: [] }, 40)).rejects.toThrow();
    const stored = (await store.get(id))!;
    expect(stored.tool_calls.map((c) => c.seq)).toEqual([1]);
    expect(stored.artifacts.map((a) => a.name)).toEqual(['c1']);
    expect(stored.cost_cents).toBe(3);
    expect(await transcriptOf(id)).toEqual(['user', 'assistant', 'first']);
  });

  it('records a turn with its first tool call in one round trip: the turn, then the call and its answer', async () => {
    const { id } = await store.create(newExecution(), { enqueue: false });
    await journal.start(id);
    const turn = { assistant: { role: 'assistant' as const, content: null, tool_calls: [report('c1')] }, costCents: 5 };
    const sent = jest.spyOn(pg.Client.prototype, 'query');
    try {
      await journal.recordToolCall(id, ...reportStep(id, 1, 'first'), turn);
      expect(await journal.isCancelled(id)).toBe(false);
      expect(sent).toHaveBeenCalledTimes(1);
    } finally {
      sent.mockRestore();
    }
    const stored = (await store.get(id))!;
    expect(stored).toMatchObject({ cost_cents: 5, tool_calls: [{ seq: 1, call_id: 'c1' }], artifacts: [{ name: 'c1' }] });
    expect(await transcriptOf(id)).toEqual(['user', 'assistant', 'first']);
    const rows = await database.db('execution_messages').where({ execution_id: id }).orderBy('idx').select('idx');
    expect(rows.map((r: { idx: number }) => r.idx)).toEqual([0, 1]);
  });

  it('stores neither a turn nor the call it carries when any part of the write cannot be stored', async () => {
    const id = await running();
    const first = reportStep(id, 1, 'first');
    await journal.recordToolCall(id, ...first);
    const [entry, answer, , artifact] = reportStep(id, 2, 'second');
    const turn = (content: string) => ({ assistant: { role: 'assistant' as const, content, tool_calls: [report('c2')] }, costCents: 40 });
    // The certificate id is taken already; then a turn jsonb cannot hold (a NUL character).
    await expect(journal.recordToolCall(id, entry, answer, first[2], artifact, turn('next'))).rejects.toThrow();
    await expect(journal.recordToolCall(id, ...reportStep(id, 2, 'second'), turn('nul \u0000'))).rejects.toThrow();
    const stored = (await store.get(id))!;
    expect(stored.tool_calls.map((c) => c.seq)).toEqual([1]);
    expect(stored.cost_cents).toBe(3);
    expect(await transcriptOf(id)).toEqual(['user', 'assistant', 'first']);
  });

  it('sees a cancellation made after the last step at the latest on the second check', async () => {
    const id = await running();
    await journal.recordToolCall(id, ...reportStep(id, 1, 'first'));
    await store.cancel(id);
    await journal.isCancelled(id);
    expect(await journal.isCancelled(id)).toBe(true);
    expect(await journal.isCancelled(id)).toBe(true);
  });

  it('takes one round trip per step, and none for the cancellation check right after a step', async () => {
    const id = await running();
    const sent = jest.spyOn(pg.Client.prototype, 'query');
    try {
      await journal.recordTurn(id, { role: 'assistant', content: null, tool_calls: [report('c1')] }, 1);
      await journal.recordToolCall(id, ...reportStep(id, 1, 'first'));
      expect(await journal.isCancelled(id)).toBe(false);
      expect(sent).toHaveBeenCalledTimes(2);
    } finally {
      sent.mockRestore();
    }
    expect((await store.get(id))!.cost_cents).toBe(4);
  });

  it('records no step of an execution that does not exist (the statement checks it, not a foreign key)', async () => {
    const id = randomUUID();
    const turn = { assistant: { role: 'assistant' as const, content: null, tool_calls: [report('c1')] }, costCents: 5 };
    await journal.recordToolCall(id, ...reportStep(id, 1, 'carried'), turn);
    await journal.recordToolCall(id, ...reportStep(id, 2, 'alone'));
    await journal.recordTurn(id, { role: 'assistant', content: 'no calls', tool_calls: [] }, 1);
    expect(await journal.isCancelled(id)).toBe(true);
    for (const table of ['execution_messages', 'tool_calls', 'certificates', 'artifacts'])
      expect(await database.db(table).where({ execution_id: id }).count({ n: '*' })).toEqual([{ n: 0 }]);
  });

  it('behind the fence of a stopped worker, refuses every step and records nothing', async () => {
    const id = await running();
    const stop = new AbortController();
    const fenced = fenceJournal(journal, stop.signal);
    await fenced.recordToolCall(id, ...reportStep(id, 1, 'before the stop'));
    stop.abort();
    await expect(fenced.recordToolCall(id, ...reportStep(id, 2, 'after the stop'))).rejects.toThrow(JournalFencedError);
    await expect(fenced.recordTurn(id, { role: 'assistant', content: 'after the stop', tool_calls: [] }, 9)).rejects.toThrow(
      JournalFencedError,
    );
    await expect(fenced.isCancelled(id)).rejects.toThrow(JournalFencedError);
    const stored = (await store.get(id))!;
    expect(stored.tool_calls.map((c) => c.output)).toEqual(['before the stop']);
    expect(stored.cost_cents).toBe(3);
  });
});
