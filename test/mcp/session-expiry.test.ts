import { randomUUID } from 'node:crypto';
import type { JobHelpers } from 'graphile-worker';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { buildRuntimeDeps } from '../../worker/build-runtime-deps.js';
import { buildTaskList } from '../../worker/task-list.js';

let t: TestApp;
const server = `expiry-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  t = await createTestApp({}, { worker: true });
  // Never contacted: the sweeper ends sessions without reaching their upstreams.
  const registered = await t.request.post('/api/v1/mcp/servers').set(t.admin.auth).send({ name: server, url: 'http://127.0.0.1:9/mcp' });
  expect(registered.status).toBe(201);
}, 30_000);

afterAll(async () => {
  await t?.close();
});

async function openSession(): Promise<string> {
  const res = await t.request
    .post('/api/v1/agent-sessions')
    .set(t.admin.auth)
    .send({ name: 'expiring', repo_root: 'acme/expiry', servers: [server], expires_in_seconds: 60 });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

async function record(id: string) {
  const res = await t.request.get(`/api/v1/executions/${id}`).set(t.admin.auth);
  expect(res.status).toBe(200);
  return res.body as { status: string; verdict: string | null; finished_at: string | null; certificates: { kind: string }[] };
}

/** The mcp_session_expiry job as the worker runs it (its handler from the task list). */
async function runExpiryJob(): Promise<void> {
  const task = buildTaskList(buildRuntimeDeps(t.deps), t.deps).mcp_session_expiry;
  await task({ _cron: { ts: new Date().toISOString(), backfilled: false } }, {} as JobHelpers);
}

describe('the agent session expiry sweeper (mcp_session_expiry)', () => {
  it('ends a session past its expiry as closing does, and leaves an open one running', async () => {
    const expired = await openSession();
    const open = await openSession();
    await t.database
      .db('agent_sessions')
      .where({ execution_id: expired })
      .update({ expires_at: new Date(Date.now() - 1000) });

    await runExpiryJob();

    const ended = await record(expired);
    expect(ended).toMatchObject({ status: 'completed', verdict: 'compliant', finished_at: expect.any(String) });
    expect(ended.certificates.map((c) => c.kind)).toEqual(['execution']);
    expect(await record(open)).toMatchObject({ status: 'running', finished_at: null });
    expect(t.logs.text()).toContain('mcp.sessions_expired');

    // A second sweep finds nothing left to end: the ended session keeps its record as it was.
    await runExpiryJob();
    expect(await record(expired)).toEqual(ended);
  });

  it('runs every minute on the worker (graphile-worker cron, registered when a worker starts)', async () => {
    const { rows } = await t.database.db.raw(
      `SELECT identifier FROM graphile_worker._private_known_crontabs WHERE identifier = 'mcp_session_expiry'`,
    );
    expect(rows).toHaveLength(1);
  });
});
