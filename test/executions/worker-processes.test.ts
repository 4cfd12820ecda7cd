import { jest } from '@jest/globals';
import { verifyPackage } from '../../core/certificates/verify-package.js';
import type { FakeReply, LlmRequest } from '../fakes/fake-llm-server.js';
import { taskOf, toolAnswers, writesReports } from './support/agent-replies.js';
import { useApiWithWorkerProcesses } from './support/api-with-worker-processes.js';
import { waitFor } from './support/wait-for.js';

jest.setTimeout(180_000);

// The API in this process queues; only the worker processes run jobs.
const app = useApiWithWorkerProcesses();
afterEach(async () => {
  await app.stopWorkers();
  app.llm.reset();
});

async function submit(task: string): Promise<string> {
  const res = await app.t.request.post('/api/v1/tasks').set(app.operator.auth).send({ task });
  expect(res.status).toBe(201);
  return res.body.id;
}

const execution = async (id: string) => (await app.t.request.get(`/api/v1/executions/${id}`).set(app.operator.auth)).body;

describe('a worker killed mid-run (kill -9)', () => {
  it('leaves the job to another worker, which resumes it without losing or repeating a recorded step', async () => {
    let held = false;
    app.llm.otherwise((request: LlmRequest): FakeReply => {
      if (toolAnswers(request) === 0) return writesReports(2)(request);
      if (!held) {
        held = true; // the first worker dies while this answer is pending
        return { text: 'never delivered', delayMs: 120_000 };
      }
      return { text: 'Resumed and done.' };
    });
    const first = await app.worker();
    const id = await submit('Write two reports, then conclude.');
    await waitFor(
      () => app.llm.requests.length,
      (n) => n === 2,
      60_000,
    );
    expect(await execution(id)).toMatchObject({ status: 'running', tool_calls: [{ seq: 1 }, { seq: 2 }] });

    first.child.kill('SIGKILL');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    // graphile-worker alone would keep the dead worker's lock for four hours.
    const locked = await app.t.database.db.raw('SELECT count(*)::int AS n FROM graphile_worker._private_jobs WHERE locked_by IS NOT NULL');
    expect(locked.rows[0].n).toBe(1);

    await app.worker();
    const done = await waitFor(
      () => execution(id),
      (e) => e.status !== 'running',
      60_000,
    );
    expect(done).toMatchObject({ status: 'completed', verdict: 'compliant', output: 'Resumed and done.' });
    expect(done.tool_calls.map((c: { seq: number; call_id: string }) => c.seq)).toEqual([1, 2]);
    expect(new Set(done.tool_calls.map((c: { call_id: string }) => c.call_id)).size).toBe(2);
    expect(done.artifacts.map((a: { name: string }) => a.name)).toEqual(['report-1', 'report-2']);
    expect(done.certificates.map((c: { kind: string }) => c.kind)).toEqual(['tool_call', 'tool_call', 'execution']);
    const messages = await app.t.database.db('execution_messages').where({ execution_id: id }).orderBy('idx');
    expect(messages.map((m: { idx: number; message: { role: string } }) => [m.idx, m.message.role])).toEqual([
      [0, 'assistant'],
      [1, 'tool'],
      [2, 'tool'],
      [3, 'assistant'],
    ]);
    // The resumed request carried the recorded transcript: both tool answers, once each.
    expect(app.llm.requests).toHaveLength(3);
    expect(app.llm.requests[1].aborted).toBe(true);
    expect(toolAnswers(app.llm.requests[2])).toBe(2);
    const pkg = (await app.t.request.get(`/api/v1/compliance/${id}/export`).set(app.operator.auth)).body;
    expect(verifyPackage(pkg, pkg.public_keys)).toMatchObject({ ok: true });
  });
});

describe('two worker processes on one database', () => {
  it('never run the same execution twice', async () => {
    app.llm.otherwise((request) => ({ ...writesReports(1)(request), delayMs: 300 }));
    // One job at a time each, and slow replies: neither worker can drain the queue alone, so
    // both compete for every job (a slow-starting worker on a busy machine still gets work).
    const oneAtATime = { SHIPGATE_WORKER_CONCURRENCY: '1' };
    const [a, b] = await Promise.all([app.worker(oneAtATime), app.worker(oneAtATime)]);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await submit(`Parallel task ${i}`));
    await waitFor(
      () => Promise.all(ids.map(execution)),
      (all) => all.every((e) => e.status === 'completed'),
      90_000,
      200,
    );

    // Each run asked the model exactly twice (tool turn, final answer) and recorded one call.
    for (const [i, id] of ids.entries()) {
      expect(app.llm.requests.filter((r) => taskOf(r) === `Parallel task ${i}`).length).toBe(2);
      expect((await execution(id)).tool_calls).toHaveLength(1);
    }
    await waitFor(
      () => a.finished().length + b.finished().length,
      (n) => n === ids.length,
      10_000,
    );
    const byA = new Set(a.finished());
    const byB = new Set(b.finished());
    expect([...byA].filter((id) => byB.has(id))).toEqual([]);
    expect(new Set([...byA, ...byB])).toEqual(new Set(ids));
    expect(byA.size).toBeGreaterThan(0);
    expect(byB.size).toBeGreaterThan(0);
  });
});
