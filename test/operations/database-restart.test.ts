import { jest } from '@jest/globals';
import fs from 'node:fs';
import { freePort, startEmbeddedPostgres, type EmbeddedDatabase } from '../../db/start-embedded-postgres.js';
import { toolAnswers, writesReports } from '../executions/support/agent-replies.js';
import { waitFor } from '../executions/support/wait-for.js';
import { sharedKeys, startWorkerProcess, type WorkerProcess } from '../executions/support/worker-process.js';
import { startFakeLlm, type FakeLlm, type FakeReply, type LlmRequest } from '../fakes/fake-llm-server.js';
import { runShipgate, tempDataDir, type ShipgateProcess } from '../support/run-shipgate.js';
import { api, hammer, jsonLines } from './support/service-client.js';

jest.setTimeout(120_000);

const OUTAGE_MS = 10_000;

// A PostgreSQL of this test's own, on a fixed port so it can be stopped and started again
// (never the machine's shared server).
let postgresDir: string;
let postgresPort: number;
let postgres: EmbeddedDatabase;
let llm: FakeLlm;
let shipgate: ShipgateProcess;
/** A `shipgate worker` process beside the one `serve` runs: both kinds must ride the outage out. */
let worker: WorkerProcess;
let keysDir: string;
let url: string;

beforeAll(async () => {
  postgresDir = tempDataDir();
  keysDir = tempDataDir();
  postgresPort = await freePort();
  postgres = await startEmbeddedPostgres(postgresDir, undefined, { port: postgresPort });
  llm = await startFakeLlm();
  const env = { ...llm.env(), ...sharedKeys() };
  shipgate = runShipgate(['serve'], {
    DATABASE_URL: postgres.url,
    SHIPGATE_DATA_DIR: keysDir,
    PORT: '0',
    LOG_LEVEL: 'info',
    SHIPGATE_WORKER_HEARTBEAT_SECONDS: '1',
    ...env,
  });
  [url, worker] = await Promise.all([
    shipgate.printed(/shipgate is running at (http:\/\/127\.0\.0\.1:\d+)/, 60_000),
    startWorkerProcess(postgres.url, env),
  ]);
});

afterAll(async () => {
  await worker?.stop();
  await shipgate?.stop();
  await postgres?.stop();
  await llm?.close();
  for (const dir of [postgresDir, keysDir]) fs.rmSync(dir, { recursive: true, force: true });
});

describe('PostgreSQL restarted under load', () => {
  it('the process survives, answers 503 (never 500) while it is down with a few JSON lines, resumes the run in flight and picks up new jobs', async () => {
    const admin = await api(url).register('ops@example.com');
    let delayed = false;
    llm.otherwise((request: LlmRequest): FakeReply => {
      if (toolAnswers(request) === 0) return writesReports(2)(request);
      if (!delayed) {
        delayed = true; // arrives while PostgreSQL is down: recording it fails
        return { text: 'Concluded after the outage.', delayMs: 2_000 };
      }
      return { text: 'Concluded after the outage.' };
    });
    const inFlight = await admin.submit('Write two reports, then conclude.');
    await waitFor(
      () => llm.requests.length,
      (n) => n === 2,
      30_000,
    );
    expect(await admin.execution(inFlight)).toMatchObject({ status: 'running', tool_calls: [{ seq: 1 }, { seq: 2 }] });

    const outputBefore = shipgate.output().length;
    const workerBefore = worker.output().length;
    await postgres.stop();
    const load = await hammer(() => admin.get('/api/v1/executions'), { connections: 8, durationMs: OUTAGE_MS });
    const outageOutput = shipgate.output().slice(outputBefore);
    const workerOutage = worker.output().slice(workerBefore);
    postgres = await startEmbeddedPostgres(postgresDir, undefined, { port: postgresPort });
    const returnedAt = Date.now();

    // Requests kept answering: 503 while it was down, fast, never a 500.
    expect(load.statuses.size).toBe(1);
    expect(load.statuses.get(503)).toBeGreaterThan(100);
    expect(load.slowestMs).toBeLessThan(2_000); // never the 5 s connection timeout: a refused connection fails at once

    // New work is picked up within 10 s of the database's return.
    const next = await waitFor(
      () => admin.submit('A task queued after the outage.').catch(() => undefined),
      (id) => id !== undefined,
      10_000,
      200,
    );
    await waitFor(
      () => llm.requests.some((r) => JSON.stringify(r.body).includes('A task queued after the outage.')),
      (seen) => seen,
      10_000 - (Date.now() - returnedAt),
      100,
    );

    // The run in flight finished afterwards, every recorded step once.
    const done = await waitFor(
      () => admin.execution(inFlight),
      (e) => e.status !== 'running' && e.status !== 'queued',
      60_000,
      200,
    );
    expect(done).toMatchObject({ status: 'completed', output: 'Concluded after the outage.' });
    expect(done.tool_calls.map((c: { seq: number }) => c.seq)).toEqual([1, 2]);
    expect(done.artifacts.map((a: { name: string }) => a.name)).toEqual(['report-1', 'report-2']);
    await waitFor(
      () => admin.execution(next!),
      (e) => e.status === 'completed',
      30_000,
      200,
    );

    // The outage was a handful of JSON lines: no per-request line, no library's stack trace.
    const lines = jsonLines(outageOutput);
    expect(lines.length).toBeLessThanOrEqual(6);
    const unavailable = lines.filter((l) => l.msg === 'database unavailable');
    expect(unavailable.length).toBeGreaterThanOrEqual(1);
    expect(unavailable.length).toBeLessThanOrEqual(2);
    // The first line may come from a background poll (failed_requests 0 then); the line at the
    // database's return counts every request refused during the outage.
    const after = jsonLines(shipgate.output().slice(outputBefore));
    const returned = after.filter((l) => l.msg === 'database reachable again');
    expect(returned).toHaveLength(1);
    expect(Number(returned[0].failed_requests)).toBeGreaterThan(0);
    expect(shipgate.output()).not.toMatch(/unhandled|Acquire connection error/i);
    // The same for the worker process.
    expect(jsonLines(workerOutage).length).toBeLessThanOrEqual(6);
    expect(jsonLines(worker.output().slice(workerBefore)).filter((l) => l.msg === 'database reachable again')).toHaveLength(1);
    expect(worker.output()).not.toMatch(/unhandled|Acquire connection error/i);

    // And they are still the same processes, which stop cleanly.
    expect([shipgate.child.exitCode, worker.child.exitCode]).toEqual([null, null]);
    shipgate.child.kill('SIGTERM');
    expect(await shipgate.exited).toEqual({ code: 0, signal: null });
    await worker.stop();
    expect(await worker.exited).toEqual({ code: 0, signal: null });
  });
});
