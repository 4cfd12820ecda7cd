import { randomUUID } from 'node:crypto';
import { buildRuntimeDeps } from '../../worker/build-runtime-deps.js';
import { startWorker } from '../../worker/start-worker.js';
import { giveUp, runExecutionJob } from '../../core/executions/run-execution-job.js';
import { enqueue } from '../../db/job-queue.js';
import { releaseDeadWorkerJobs } from '../../db/release-dead-worker-jobs.js';
import { startFakeLlm, type FakeLlm } from '../fakes/fake-llm-server.js';
import { createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { waitFor } from './support/wait-for.js';

let llm: FakeLlm;
let t: TestApp;
let operator: TestUser;

beforeAll(async () => {
  llm = await startFakeLlm();
  t = await createTestApp(llm.env());
  operator = await t.user('OPERATOR');
});
afterAll(async () => {
  await t.close();
  await llm.close();
});

async function queued(enqueueRun = false): Promise<string> {
  const res = await t.request
    .post('/api/v1/tasks')
    .set(operator.auth)
    .send({ task: `job ${randomUUID()}` });
  if (!enqueueRun) await t.database.db.raw('DELETE FROM graphile_worker._private_jobs');
  return res.body.id;
}

const lockedBy = async () => (await t.database.db.raw('SELECT locked_by, attempts FROM graphile_worker._private_jobs ORDER BY id')).rows;

describe('releaseDeadWorkerJobs', () => {
  it("unlocks the jobs of a worker whose heartbeat stopped, keeps a live worker's, and removes exhausted ones", async () => {
    await t.database.db.raw('DELETE FROM graphile_worker._private_jobs');
    const db = t.database.db;
    for (const key of ['a', 'b', 'c']) await enqueue(db, 'run_execution', { execution_id: randomUUID() }, `test:${key}`);
    const old = "now() - interval '10 minutes'";
    await db.raw(
      `UPDATE graphile_worker._private_jobs SET locked_by = 'pool-dead', locked_at = ${old}, attempts = 1 WHERE key IN ('test:a')`,
    );
    await db.raw(`UPDATE graphile_worker._private_jobs SET locked_by = 'pool-live', locked_at = ${old}, attempts = 1 WHERE key = 'test:b'`);
    await db.raw(
      `UPDATE graphile_worker._private_jobs SET locked_by = 'pool-dead', locked_at = ${old}, attempts = max_attempts WHERE key = 'test:c'`,
    );
    await db('worker_heartbeats').insert([
      { worker_id: 'pool-dead', seen_at: db.raw(old) },
      { worker_id: 'pool-live', seen_at: db.fn.now() },
    ]);

    const exhausted = await releaseDeadWorkerJobs(db, 60);
    expect(exhausted).toEqual([{ task: 'run_execution', payload: { execution_id: expect.any(String) }, attempts: 5 }]);
    const jobs = (await db.raw('SELECT key, locked_by FROM graphile_worker._private_jobs ORDER BY key')).rows;
    expect(jobs).toEqual([
      { key: 'test:a', locked_by: null },
      { key: 'test:b', locked_by: 'pool-live' },
    ]);
    await db.raw('DELETE FROM graphile_worker._private_jobs');
  });
});

describe('runExecutionJob', () => {
  const runtime = () => buildRuntimeDeps(t.deps);
  const failing = async () => {
    throw new Error('database went away');
  };

  it('rethrows a failure while attempts remain (the queue retries and the run resumes)', async () => {
    const id = await queued();
    await expect(
      runExecutionJob(runtime(), failing, id, { attempts: 2, maxAttempts: 5, signal: new AbortController().signal }),
    ).rejects.toThrow('database went away');
    expect((await t.deps.executions.get(id))!.status).toBe('queued');
  });

  it('closes the execution as failed on the last attempt instead of leaving it running forever', async () => {
    const id = await queued();
    await t.deps.journal.start(id);
    await runExecutionJob(runtime(), failing, id, { attempts: 5, maxAttempts: 5, signal: new AbortController().signal });
    expect(await t.deps.executions.get(id)).toMatchObject({
      status: 'failed',
      verdict: null,
      error: { code: 'internal_error', message: 'The run could not be completed in 5 attempts.' },
    });
    await giveUp(t.deps.journal, id, 6); // a no-op once finished
    expect((await t.deps.executions.get(id))!.error!.message).toContain('5 attempts');
  });

  it('closes the execution at the first attempt when the database refuses a value of the run (a retry would pay the provider again)', async () => {
    const id = await queued();
    await t.deps.journal.start(id);
    // The journal itself is asked to store what PostgreSQL refuses: a NUL in a turn's text.
    const unstorable = async () => {
      await t.deps.journal.recordTurn(id, { role: 'assistant', content: 'a\u0000b', tool_calls: [] }, 1);
    };
    await runExecutionJob(runtime(), unstorable, id, { attempts: 1, maxAttempts: 5, signal: new AbortController().signal });
    expect(await t.deps.executions.get(id)).toMatchObject({
      status: 'failed',
      verdict: null,
      error: { code: 'internal_error', message: expect.stringMatching(/database refused a value.*not retried/) },
    });
  });
});

describe('stopping a worker', () => {
  it('aborts a run stuck on the provider and hands its job straight back; the next worker resumes it', async () => {
    llm.reset();
    llm.script({ text: 'never delivered', delayMs: 60_000 }, { text: 'Finished by the next worker.' });
    await t.database.db.raw('DELETE FROM graphile_worker._private_jobs');
    const first = await startWorker(t.deps, t.database.url);
    const id = await queued(true);
    await waitFor(
      () => llm.requests.length,
      (n) => n === 1,
    );
    const started = Date.now();
    await first.stop();
    expect(Date.now() - started).toBeLessThan(15_000);
    await waitFor(
      () => llm.requests[0].aborted,
      (aborted) => aborted,
      2000,
    );
    expect(await lockedBy()).toEqual([{ locked_by: null, attempts: 1 }]);
    expect((await t.deps.executions.get(id))!.status).toBe('running');

    const second = await startWorker(t.deps, t.database.url);
    try {
      const done = await waitFor(
        () => t.deps.executions.get(id),
        (e) => e!.status === 'completed',
        20_000,
        100,
      );
      expect(done!.output).toBe('Finished by the next worker.');
      expect(llm.requests).toHaveLength(2);
    } finally {
      await second.stop();
    }
  });
});
