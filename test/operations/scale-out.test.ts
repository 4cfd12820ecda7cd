import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { taskOf, writesReports } from '../executions/support/agent-replies.js';
import { waitFor } from '../executions/support/wait-for.js';
import { sharedKeys, startWorkerProcess, type WorkerProcess } from '../executions/support/worker-process.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/fake-github-server.js';
import { startFakeLlm, type FakeLlm, type LlmRequest } from '../fakes/fake-llm-server.js';
import { checkRunPayload, deliverTo, pullRequestPayload } from '../support/github-deliveries.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { runShipgate, tempDataDir, type ShipgateProcess } from '../support/run-shipgate.js';
import { reviewedRelease, stageModel } from '../workflows/support/stage-model.js';
import { api, jsonLines, userOf, type ServiceUser } from './support/service-client.js';

jest.setTimeout(150_000);

const SECRET = 'scale-out-webhook-secret';
const SHA = 'c'.repeat(40);

let database: TestDatabase;
let llm: FakeLlm;
let gh: FakeGitHub;
let env: Record<string, string>;
const apis: { process: ShipgateProcess; url: string; dataDir: string }[] = [];
const workers: WorkerProcess[] = [];

/** `shipgate serve --no-worker`: an API replica that runs no jobs. */
async function startApi(): Promise<{ process: ShipgateProcess; url: string; dataDir: string }> {
  const dataDir = tempDataDir();
  const proc = runShipgate(['serve', '--no-worker'], { ...env, DATABASE_URL: database.url, SHIPGATE_DATA_DIR: dataDir, PORT: '0' });
  const url = await proc.printed(/shipgate is running at (http:\/\/127\.0\.0\.1:\d+)/, 60_000);
  return { process: proc, url, dataDir };
}

beforeAll(async () => {
  database = await createTestDatabase();
  llm = await startFakeLlm();
  gh = await startFakeGitHub();
  gh.repos.commit('acme/app', { files: { 'README.md': 'app\n' } });
  // One job at a time per worker, so both workers compete for every job.
  env = { ...llm.env(), ...gh.env(), ...sharedKeys(), WEBHOOK_SECRET: SECRET, SHIPGATE_WORKER_CONCURRENCY: '1', LOG_LEVEL: 'info' };
  const [a, b, w1, w2] = await Promise.all([
    startApi(),
    startApi(),
    startWorkerProcess(database.url, env),
    startWorkerProcess(database.url, env),
  ]);
  apis.push(a as Awaited<ReturnType<typeof startApi>>, b as Awaited<ReturnType<typeof startApi>>);
  workers.push(w1 as WorkerProcess, w2 as WorkerProcess);
});

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  for (const { process: proc, dataDir } of apis) {
    await proc.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  await database?.drop();
  await llm?.close();
  await gh?.close();
});

/** Sends a signed delivery to one API replica. */
async function deliver(url: string, event: string, payload: unknown, id: string): Promise<string> {
  const res = await deliverTo(url, event, payload, SECRET, id);
  expect(res.status).toBe(202);
  return (res.body as { status: string }).status;
}

/** `Completed task <job id> (<task>` lines of a worker: which jobs it ran to the end. */
function completedJobs(worker: WorkerProcess): { id: string; task: string }[] {
  return jsonLines(worker.output())
    .map((l) => /^Completed task (\d+) \((\w+)/.exec(String(l.msg)))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ id: m[1], task: m[2] }));
}

describe('two API replicas and two workers on one PostgreSQL', () => {
  it('process every execution, workflow and webhook delivery exactly once, whichever replica took the request', async () => {
    llm.otherwise((request: LlmRequest) =>
      taskOf(request).startsWith('Parallel') ? { ...writesReports(1)(request), delayMs: 200 } : stageModel()(request),
    );
    const admin = await api(apis[0].url).register('ops@example.com');
    const via = (i: number): ServiceUser & { url: string } => ({ ...userOf(apis[i % 2].url, admin.key), url: apis[i % 2].url });

    // Executions, submitted alternately to each replica.
    const executionIds: string[] = [];
    for (let i = 0; i < 8; i++) executionIds.push(await via(i).submit(`Parallel task ${i}`));

    // Reviewed-release workflows, likewise.
    const workflowIds: string[] = [];
    for (let i = 0; i < 2; i++) {
      const body = reviewedRelease({ name: `Release ${i}` });
      body.stages = body.stages.map((s) => ({ ...s, task: `${s.task} (workflow ${i})` }));
      const res = await fetch(`${via(i).url}/api/v1/workflows`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${admin.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(201);
      workflowIds.push(((await res.json()) as { id: string }).id);
    }

    // Webhook deliveries: a pull request and six check runs, each delivered to one replica and
    // redelivered to the other.
    const deliveries: [string, unknown, string][] = [['pull_request', pullRequestPayload('opened', { number: 5, sha: SHA }), randomUUID()]];
    for (let i = 0; i < 6; i++)
      deliveries.push(['check_run', checkRunPayload('completed', { id: 900 + i, name: `check-${i}`, sha: SHA }), randomUUID()]);
    for (const [i, [event, payload, id]] of deliveries.entries()) {
      expect(await deliver(apis[i % 2].url, event, payload, id)).toBe('queued');
      expect(await deliver(apis[(i + 1) % 2].url, event, payload, id)).toBe('duplicate');
    }

    const executions = await waitFor(
      () => Promise.all(executionIds.map((id) => admin.execution(id))),
      (all) => all.every((e) => e.status === 'completed'),
      60_000,
      250,
    );
    const workflows = await waitFor(
      () => Promise.all(workflowIds.map(async (id) => (await admin.get(`/api/v1/workflows/${id}`)).json() as Promise<{ status: string }>)),
      (all) => all.every((w) => !['queued', 'running'].includes(w.status)),
      60_000,
      250,
    );
    expect(workflows.map((w) => w.status)).toEqual(['completed', 'completed']);
    const evidence = await waitFor(
      async () =>
        (await database.db.raw("SELECT name, count(*)::int AS n FROM evidence WHERE name LIKE 'check-%' GROUP BY name ORDER BY name")).rows,
      (rows: unknown[]) => rows.length === 6,
      30_000,
      250,
    );

    // Executions: each run asked the model twice and recorded its one call once.
    for (const [i, execution] of executions.entries()) {
      expect(llm.requests.filter((r) => taskOf(r) === `Parallel task ${i}`)).toHaveLength(2);
      expect(execution.tool_calls).toHaveLength(1);
    }
    // Workflows: every stage ran once (review and release take two model turns, announce one).
    for (let i = 0; i < 2; i++) {
      const asked = (stage: string) =>
        llm.requests.filter((r) => taskOf(r).startsWith(stage) && taskOf(r).endsWith(`(workflow ${i})`)).length;
      expect([asked('Review'), asked('Release'), asked('Announce')]).toEqual([2, 2, 1]);
    }
    // Deliveries: one record per delivery id, one piece of evidence per check run.
    const { rows: claimed } = await database.db.raw('SELECT count(*)::int AS n FROM github_deliveries');
    expect(claimed[0].n).toBe(deliveries.length);
    expect(evidence).toEqual(Array.from({ length: 6 }, (_, i) => ({ name: `check-${i}`, n: 1 })));

    // Jobs: no job ran to the end on both workers, and both workers took part.
    await waitFor(
      () => new Set(executionIds.filter((id) => workers.some((w) => w.finished().includes(id)))).size,
      (n) => n === executionIds.length,
      10_000,
    );
    const [first, second] = workers.map((w) => completedJobs(w));
    expect(first.filter((job) => second.some((other) => other.id === job.id))).toEqual([]);
    expect(first.length).toBeGreaterThan(0);
    expect(second.length).toBeGreaterThan(0);
    const tasks = new Set([...first, ...second].map((job) => job.task));
    expect([...tasks].sort()).toEqual(expect.arrayContaining(['github_delivery', 'run_execution', 'run_workflow']));
    const finishedBy = workers.map((w) => new Set(w.finished()));
    expect(executionIds.filter((id) => finishedBy[0].has(id) && finishedBy[1].has(id))).toEqual([]);

    // Both replicas answered requests, and they logged nothing but JSON.
    for (const { process: proc } of apis) {
      const banner = (line: string) => line.startsWith('  ');
      const lines = jsonLines(
        proc
          .output()
          .split('\n')
          .filter((line) => !banner(line))
          .join('\n'),
      );
      expect(lines.filter((l) => l.msg === 'request').length).toBeGreaterThan(5);
    }
  });
});
