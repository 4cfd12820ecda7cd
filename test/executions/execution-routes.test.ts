import { startFakeLlm, type FakeLlm } from '../fakes/fake-llm-server.js';
import { createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { taskOf, writesReports } from './support/agent-replies.js';
import { newExecution } from './support/execution-fixtures.js';
import { waitFor } from './support/wait-for.js';

let llm: FakeLlm;
let t: TestApp;
let owner: TestUser;
let other: TestUser;

beforeAll(async () => {
  llm = await startFakeLlm();
  t = await createTestApp(llm.env(), { worker: true });
  owner = await t.user('OPERATOR');
  other = await t.user('OPERATOR');
});
// Tasks name their behaviour: "slow" holds the answer until the client goes away. Set before every
// test, since some tests script the provider their own way.
beforeEach(() => {
  llm.reset();
  llm.otherwise((request) => (taskOf(request).startsWith('slow') ? { text: 'too late', delayMs: 60_000 } : writesReports(3)(request)));
});
afterAll(async () => {
  await t.close();
  await llm.close();
});

const get = (user: TestUser, path: string) => t.request.get(`/api/v1${path}`).set(user.auth);
const del = (user: TestUser, id: string) => t.request.delete(`/api/v1/executions/${id}`).set(user.auth);

async function submit(user: TestUser, body: Record<string, unknown>): Promise<string> {
  const res = await t.request.post('/api/v1/tasks').set(user.auth).send(body);
  expect(res.status).toBe(201);
  return res.body.id;
}

function settled(user: TestUser, id: string, statuses = ['completed', 'failed', 'cancelled']) {
  return waitFor(
    async () => (await get(user, `/executions/${id}`)).body,
    (e) => statuses.includes(e.status),
  );
}

describe('a run through the worker', () => {
  it('completes with every tool call, certificate, artifact and the output; tool calls page by seq', async () => {
    const id = await submit(owner, { task: 'Audit the dependencies.' });
    const done = await settled(owner, id);
    expect(done).toMatchObject({ status: 'completed', verdict: 'compliant', output: 'Reports written.', error: null });
    expect(done.tool_calls.map((c: { seq: number; tool: string; verdict: string }) => [c.seq, c.tool, c.verdict])).toEqual([
      [1, 'write_report', 'allowed'],
      [2, 'write_report', 'allowed'],
      [3, 'write_report', 'allowed'],
    ]);
    expect(done.certificates.map((c: { kind: string }) => c.kind)).toEqual(['tool_call', 'tool_call', 'tool_call', 'execution']);
    expect(done.artifacts.map((a: { name: string }) => a.name)).toEqual(['report-1', 'report-2', 'report-3']);
    expect(done.cost_cents).toBeGreaterThan(0);

    const first = await get(owner, `/executions/${id}/tool-calls?limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.map((c: { seq: number }) => c.seq)).toEqual([1, 2]);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.link)![1];
    const second = await t.request.get(next).set(owner.auth);
    expect(second.body.map((c: { seq: number }) => c.seq)).toEqual([3]);
    expect(second.headers.link).toBeUndefined();
    expect((await get(owner, `/executions/${id}/tool-calls?cursor=nonsense`)).status).toBe(422);
  });

  it('fails at once, with its reason, when the model has no price', async () => {
    const id = await submit(owner, { task: 'Use a model nobody priced.', model: 'mystery-model-1' });
    const done = await settled(owner, id);
    expect(done).toMatchObject({ status: 'failed', error: { code: 'model_price_unknown' } });
  });
});

describe('GET /executions', () => {
  /** An operator of the test's own with `count` finished runs, oldest first: the lists hold only these. */
  async function operatorWithRuns(count: number): Promise<{ user: TestUser; mine: string[] }> {
    const user = await t.user('OPERATOR');
    const mine: string[] = [];
    for (let i = 0; i < count; i++) mine.push(await submit(user, { task: `List me ${i}` }));
    await Promise.all(mine.map((id) => settled(user, id)));
    return { user, mine };
  }

  it("lists the caller's own executions newest first, a page at a time", async () => {
    const { user: owner, mine } = await operatorWithRuns(3);
    const first = await get(owner, '/executions?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.map((e: { id: string }) => e.id)).toEqual([mine[2], mine[1]]);
    expect(first.body[0]).not.toHaveProperty('tool_calls');
    expect(first.body[0]).toMatchObject({ status: 'completed', api_key_override: false });
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.link)![1];
    expect(next).toContain('limit=2');
    const second = await t.request.get(next).set(owner.auth);
    expect(second.body.map((e: { id: string }) => e.id)).toEqual([mine[0]]);
    expect(second.headers.link).toBeUndefined();
  });

  it('filters by status and refuses an unknown one', async () => {
    const { user: owner, mine } = await operatorWithRuns(3);
    const cancelled = await t.deps.executions.create(
      newExecution(owner.id, (await get(owner, `/executions/${mine[0]}`)).body.policy, { task: 'never run' }),
      { enqueue: false },
    );
    await del(owner, cancelled.id).expect(200);
    expect((await get(owner, '/executions?status=cancelled')).body.map((e: { id: string }) => e.id)).toEqual([cancelled.id]);
    expect((await get(owner, '/executions?status=completed')).body).toHaveLength(3);
    expect((await get(owner, '/executions?status=queued')).body).toEqual([]);
    const bad = await get(owner, '/executions?status=done');
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['query', 'status']);
  });

  it("shows everyone's executions with scope=all to ADMIN and AUDITOR only", async () => {
    const { user: owner, mine } = await operatorWithRuns(1);
    const otherId = await submit(other, { task: "Someone else's work" });
    expect((await get(owner, '/executions')).body.map((e: { id: string }) => e.id)).not.toContain(otherId);
    const denied = await get(owner, '/executions?scope=all');
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ detail: 'Requires one of: ADMIN, AUDITOR' });
    for (const reader of [t.admin, await t.user('AUDITOR')]) {
      const all = await get(reader, '/executions?scope=all&limit=100');
      expect(all.status).toBe(200);
      expect(all.body.map((e: { id: string }) => e.id)).toEqual(expect.arrayContaining([otherId, ...mine]));
    }
    expect((await get(owner, '/executions?scope=everyone')).status).toBe(422);
  });
});

describe("access to another user's execution", () => {
  it('is 404 for GET, tool calls and DELETE; AUDITOR reads but cannot cancel; ADMIN may cancel', async () => {
    const id = await submit(owner, { task: 'slow private work' });
    const stranger = await t.user('OPERATOR');
    for (const res of [
      await get(stranger, `/executions/${id}`),
      await get(stranger, `/executions/${id}/tool-calls`),
      await del(stranger, id),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Execution not found.' });
    }
    const auditor = await t.user('AUDITOR');
    expect((await get(auditor, `/executions/${id}`)).status).toBe(200);
    expect((await del(auditor, id)).status).toBe(403);
    const cancelled = await del(t.admin, id);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    expect((await get(owner, '/executions/not-a-uuid')).status).toBe(422);
    expect((await get(owner, '/executions/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('DELETE /executions/{execution_id}', () => {
  it('cancels a run waiting on a slow provider within 2 s, aborting the provider request', async () => {
    llm.reset();
    llm.otherwise(() => ({ text: 'too late', delayMs: 60_000 }));
    const id = await submit(owner, { task: 'slow analysis' });
    await waitFor(
      () => llm.requests.length,
      (n) => n === 1,
    );
    expect((await get(owner, `/executions/${id}`)).body.status).toBe('running');
    const aborted = llm.whenAborted();
    const started = Date.now();
    const res = await del(owner, id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, status: 'cancelled', verdict: null });
    expect(res.body.finished_at).not.toBeNull();
    const request = await Promise.race([aborted, new Promise<null>((resolve) => setTimeout(() => resolve(null), 2000))]);
    expect(request).not.toBeNull();
    expect(Date.now() - started).toBeLessThan(2000);
    // The run ended as cancelled and asked nothing more.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(llm.requests).toHaveLength(1);
    const after = (await get(owner, `/executions/${id}`)).body;
    expect(after).toMatchObject({ status: 'cancelled', output: null, certificates: [] });
  });

  it('is idempotent on every state: queued, running, completed, failed, cancelled', async () => {
    llm.reset();
    llm.otherwise((request) => (taskOf(request).startsWith('slow') ? { text: 'late', delayMs: 60_000 } : writesReports(1)(request)));
    const running = await submit(owner, { task: 'slow one' });
    const completed = await submit(owner, { task: 'quick one' });
    const failed = await submit(owner, { task: 'unpriced', model: 'mystery-model-2' });
    await waitFor(
      () => llm.requests.filter((r) => taskOf(r) === 'slow one').length,
      (n) => n === 1,
    );
    await settled(owner, completed);
    await settled(owner, failed);
    const { policy } = (await get(owner, `/executions/${completed}`)).body;
    const queued = await t.deps.executions.create(newExecution(owner.id, policy, { task: 'stays queued', api_key: 'sk-queued-override' }), {
      enqueue: false,
    });

    const expected: Record<string, string> = {
      [queued.id]: 'cancelled',
      [running]: 'cancelled',
      [completed]: 'completed',
      [failed]: 'failed',
    };
    for (const [id, status] of Object.entries(expected)) {
      const before = (await get(owner, `/executions/${id}`)).body;
      const once = await del(owner, id);
      const twice = await del(owner, id);
      expect([once.status, twice.status]).toEqual([200, 200]);
      expect(once.body.status).toBe(status);
      expect(twice.body).toEqual(once.body);
      if (status !== 'cancelled') expect(once.body).toEqual(before);
    }
    // Cancelling erased the stored key override of the queued execution.
    const row = await t.database.db('executions').where({ id: queued.id }).first('api_key_ciphertext', 'api_key_override');
    expect(row).toEqual({ api_key_ciphertext: null, api_key_override: true });
  });
});
