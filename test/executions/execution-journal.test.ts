import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { ExecutionJournal } from '../../core/agent/journal.js';
import { BUILT_IN_PRICES } from '../../core/agent/prices.js';
import { runExecution } from '../../core/agent/run-execution.js';
import type { RuntimeDeps } from '../../core/agent/runtime-deps.js';
import { canonicalDigest } from '../../core/canonical-json.js';
import { createCertifier } from '../../core/certificates/create-certifier.js';
import { createSigner } from '../../core/certificates/create-signer.js';
import type { ExecutionStore, NewExecution } from '../../core/executions/execution-store.js';
import { createExecutionJournal } from '../../db/stores/execution-journal.js';
import { createExecutionStore } from '../../db/stores/execution-store.js';
import { defaultPolicy } from '../agent/support/agent-harness.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { call, finalAnswer, ScriptedProvider, toolTurn, type ScriptStep } from '../helpers/scripted-provider.js';

const policy = defaultPolicy();
const secretKey = randomBytes(32);
let database: TestDatabase;
let store: ExecutionStore;
let journal: ExecutionJournal;
let ownerId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  store = createExecutionStore(database.db, secretKey);
  journal = createExecutionJournal(database.db, secretKey, { get: async () => policy });
  [{ id: ownerId }] = await database.db('users').insert({ email: 'owner@example.com', name: 'O', role: 'OPERATOR', password_hash: 'x' }).returning('id');
});
afterAll(async () => { await database.drop(); });

function newExecution(overrides: Partial<NewExecution> = {}): NewExecution {
  return {
    owner_id: ownerId, task: 'Write two reports.', policy: { name: policy.name, version: policy.version, digest: canonicalDigest(policy) },
    stage_role: 'worker', permissions: ['*'], dropped_permissions: [], budget_cents: 1500, provider: 'openai', model: 'gpt-4o-mini',
    ...overrides,
  };
}

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

function runtime(steps: ScriptStep[], journalUsed: ExecutionJournal = journal): { deps: RuntimeDeps; provider: ScriptedProvider } {
  const provider = new ScriptedProvider(steps);
  const deps: RuntimeDeps = {
    journal: journalUsed, providers: () => provider, certifier: createCertifier(createSigner(generateKeyPairSync('ed25519').privateKey)),
    prices: BUILT_IN_PRICES, pricesHint: 'SHIPGATE_PRICES_FILE', httpAllowlist: [], cancelPollMs: 20, log: () => {},
  };
  return { deps, provider };
}

const report = (id: string) => call(id, 'write_report', { name: id, content: `report ${id}` });

describe('execution journal on PostgreSQL', () => {
  it('records a whole run: transcript, tool calls, artifacts, certificates, cost, and erases the key override', async () => {
    const created = await store.create(newExecution({ api_key: 'sk-override-123456' }), { enqueue: false });
    expect(created).toMatchObject({ status: 'queued', api_key_override: true, cost_cents: 0 });
    const sealed = await database.db('executions').where({ id: created.id }).first('api_key_ciphertext');
    expect(sealed.api_key_ciphertext).toEqual(expect.any(String));
    expect(sealed.api_key_ciphertext).not.toContain('sk-override');
    expect((await journal.load(created.id)).apiKeyOverride).toBe('sk-override-123456');

    const { deps, provider } = runtime([toolTurn([report('c1'), report('c2')]), finalAnswer('Both stored.')]);
    await runExecution(deps, created.id);

    const done = (await store.get(created.id))!;
    expect(done).toMatchObject({ status: 'completed', verdict: 'compliant', output: 'Both stored.', api_key_override: true, error: null, violations: [] });
    expect(done.cost_cents).toBeGreaterThan(0);
    expect(done.tool_calls.map((c) => [c.seq, c.call_id, c.verdict])).toEqual([[1, 'c1', 'allowed'], [2, 'c2', 'allowed']]);
    expect(done.tool_calls[0].arguments).toEqual({ name: 'c1', content: 'report c1' });
    expect(done.artifacts.map((a) => a.name)).toEqual(['c1', 'c2']);
    expect(done.certificates.map((c) => c.kind)).toEqual(['tool_call', 'tool_call', 'execution']);
    expect(done.tool_calls.map((c) => c.certificate_id)).toEqual([done.certificates[0].id, done.certificates[1].id]);
    expect(done.started_at).not.toBeNull();
    expect(done.finished_at).not.toBeNull();
    const after = await database.db('executions').where({ id: created.id }).first('api_key_ciphertext');
    expect(after.api_key_ciphertext).toBeNull();
    const state = await journal.load(created.id);
    expect(state.apiKeyOverride).toBeUndefined();
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
    expect(done.tool_calls.map((c) => [c.seq, c.call_id])).toEqual([[1, 'c1'], [2, 'c2'], [3, 'c3']]);
    expect(done.artifacts.map((a) => a.name)).toEqual(['c1', 'c2', 'c3']);
    expect(done.certificates.map((c) => c.kind)).toEqual(['tool_call', 'tool_call', 'tool_call', 'execution']);
    expect(done.status).toBe('completed');
    // The resumed request carried every answer exactly once.
    expect(second.provider.requests[0].messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id)).toEqual(['c1', 'c2', 'c3']);
    const rows = await database.db('execution_messages').where({ execution_id: id }).orderBy('idx').select('idx');
    expect(rows.map((r: { idx: number }) => r.idx)).toEqual([0, 1, 2, 3, 4]);
  });

  it('ignores a replayed tool call and a second finish', async () => {
    const { id } = await store.create(newExecution(), { enqueue: false });
    await runExecution(runtime([toolTurn([report('c1')]), finalAnswer('done')]).deps, id);
    const before = (await store.get(id))!;
    const entry = before.tool_calls[0];
    await journal.recordToolCall(id, { ...entry, output: 'replayed' }, { role: 'tool', tool_call_id: 'c1', content: 'again' }, null, null);
    await journal.finish(id, { status: 'failed', verdict: 'non_compliant', output: null, error: { code: 'internal_error', message: 'late' }, certificate: null, violations: ['x'] });
    const after = (await store.get(id))!;
    expect(after).toEqual(before);
    expect((await journal.load(id)).transcript).toHaveLength(4);
  });

  it('starts only queued or running executions, and reports cancellation', async () => {
    const { id } = await store.create(newExecution(), { enqueue: false });
    expect(await journal.isCancelled(id)).toBe(false);
    expect(await journal.start(id)).toBe(true);
    expect(await journal.start(id)).toBe(true);
    const cancelled = (await store.cancel(id))!;
    expect(cancelled.status).toBe('cancelled');
    expect(await journal.isCancelled(id)).toBe(true);
    expect(await journal.start(id)).toBe(false);
    await runExecution(runtime([finalAnswer('never asked')]).deps, id);
    expect((await store.get(id))!.status).toBe('cancelled');
  });
});
