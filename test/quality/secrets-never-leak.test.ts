import type { Knex } from 'knex';
import type { Response } from 'supertest';
import { startFakeLlm, type FakeLlm } from '../fakes/fake-llm-server.js';
import { writesReports } from '../executions/support/agent-replies.js';
import { waitFor } from '../executions/support/wait-for.js';
import { createTestApp, type EmptyTestApp } from '../support/test-app.js';

// ARCHITECTURE.md, "Quality bars": secrets (passwords, keys, provider key overrides) never appear in any response,
// log line or export. test/api/secrets.test.ts covers the account calls on their own; this is the
// whole journey, through an agent run that uses a per-execution provider key.
const PASSWORD = 'Quality-Passphrase-7731';
const OVERRIDE = 'sk-test-OVERRIDE-1234567890';
const REFUSED_OVERRIDE = 'sk-test-REFUSED-0987654321';
const SERVICE_KEY = 'sk-test-SERVICE-KEY-5555555555';
const REFUSED_STAGE_KEY = 'sk-test-STAGE-REFUSED-3141592653';
// Routes whose answer carries a key for its caller, once, in `api_key`.
const ISSUING = new Set(['/api/v1/auth/register', '/api/v1/auth/login', '/api/v1/auth/rotate']);

let llm: FakeLlm;
let t: EmptyTestApp;
beforeAll(async () => {
  llm = await startFakeLlm({ apiKey: OVERRIDE });
  llm.otherwise(writesReports(2));
  t = await createTestApp({ ...llm.env(SERVICE_KEY), LOG_LEVEL: 'trace' }, { empty: true, worker: true });
});
afterAll(async () => {
  await t.close();
  await llm.close();
});

/** Every row of every table the service writes (its own and the job queue's), as JSON text. */
async function everyStoredRow(db: Knex): Promise<string> {
  const tables = await db('information_schema.tables')
    .whereIn('table_schema', ['public', 'graphile_worker'])
    .andWhere({ table_type: 'BASE TABLE' })
    .select('table_schema', 'table_name');
  const dumps = await Promise.all(
    tables.map(({ table_schema: schema, table_name: table }) => db.raw('SELECT row_to_json(r)::text AS row FROM ??.?? r', [schema, table])),
  );
  return dumps.flatMap((d) => d.rows.map((r: { row: string }) => r.row)).join('\n');
}

describe('secrets', () => {
  it('never leave the service: not in responses, headers, exports, log lines or stored rows', async () => {
    const responses: Response[] = [];
    const issued: string[] = [];
    const call = async (pending: Promise<Response>) => {
      const res = await pending;
      responses.push(res);
      if (ISSUING.has(new URL(res.request.url).pathname) && typeof res.body?.api_key === 'string') issued.push(res.body.api_key);
      return res;
    };
    const api = (key: string) => ({
      get: (path: string) => call(t.request.get(`/api/v1${path}`).set('Authorization', `Bearer ${key}`)),
      post: (path: string, body?: object) => call(t.request.post(`/api/v1${path}`).set('Authorization', `Bearer ${key}`).send(body)),
    });

    const registered = await call(
      t.request.post('/api/v1/auth/register').send({ email: 'keeper@example.com', name: 'Keeper', password: PASSWORD }),
    );
    expect(registered.status).toBe(201);
    const loggedIn = await call(t.request.post('/api/v1/auth/login').send({ email: 'keeper@example.com', password: PASSWORD }));
    const rotated = await api(loggedIn.body.api_key).post('/auth/rotate');
    const me = api(rotated.body.api_key);

    const used = await me.post('/tasks', { task: 'Write the audit notes.', api_key: OVERRIDE });
    const refused = await me.post('/tasks', { task: 'Write the audit notes again.', api_key: REFUSED_OVERRIDE });
    expect([used.status, refused.status]).toEqual([201, 201]);
    expect(used.body.api_key_override).toBe(true);
    const ids = [used.body.id as string, refused.body.id as string];
    const settled = (id: string) =>
      waitFor(
        async () => (await me.get(`/executions/${id}`)).body,
        (e) => ['completed', 'failed'].includes(e.status),
      );
    // The fake LLM accepts only OVERRIDE: a completed run proves the override reached the provider.
    expect((await settled(ids[0])).status).toBe('completed');
    expect(await settled(ids[1])).toMatchObject({ status: 'failed', error: { message: expect.any(String) } });
    // A workflow's stage keys: the first stage's is accepted, the second's refused by the provider.
    const workflow = await me.post('/workflows', {
      name: 'Keys per stage',
      stages: [
        { id: 'accepted', name: 'accepted', task: 'Write the stage notes.', api_key: OVERRIDE },
        { id: 'refused', name: 'refused', task: 'Write more stage notes.', api_key: REFUSED_STAGE_KEY },
        { id: 'never', name: 'never', task: 'Never runs.', api_key: REFUSED_STAGE_KEY },
      ],
    });
    expect(workflow.status).toBe(201);
    const ranWorkflow = await waitFor(
      async () => (await me.get(`/workflows/${workflow.body.id}`)).body,
      (w) => w.status === 'failed',
      60_000,
    );
    expect(ranWorkflow.stages.map((s: { status: string }) => s.status)).toEqual(['completed', 'failed', 'skipped']);
    // Erased once each stage ended, the skipped one included (not merely never shown).
    expect(await t.database.db('workflow_stages').whereNotNull('api_key_ciphertext').count({ n: '*' })).toEqual([{ n: 0 }]);
    expect((await me.get('/workflows')).status).toBe(200);
    expect((await me.get(`/workflows/${workflow.body.id}/export`)).status).toBe(200);
    for (const stage of ranWorkflow.stages.slice(0, 2)) expect((await me.get(`/executions/${stage.execution_id}`)).status).toBe(200);
    expect(llm.requests.map((r) => r.headers.authorization)).toEqual(
      expect.arrayContaining([`Bearer ${OVERRIDE}`, `Bearer ${REFUSED_OVERRIDE}`, `Bearer ${REFUSED_STAGE_KEY}`]),
    );

    expect((await me.get('/executions')).body.map((e: { id: string }) => e.id)).toEqual(expect.arrayContaining(ids));
    for (const id of ids) {
      expect((await me.get(`/executions/${id}`)).status).toBe(200);
      expect((await me.get(`/executions/${id}/tool-calls`)).status).toBe(200);
      expect((await me.get(`/compliance/${id}/export`)).status).toBe(200);
    }
    expect(issued).toHaveLength(3);

    const secrets = [PASSWORD, OVERRIDE, REFUSED_OVERRIDE, REFUSED_STAGE_KEY, SERVICE_KEY, ...issued];
    for (const res of responses) {
      const issuing = ISSUING.has(new URL(res.request.url).pathname);
      const { api_key: _shownOnce, ...rest } = issuing ? (res.body as Record<string, unknown>) : {};
      const visible = JSON.stringify(issuing ? { body: rest, headers: res.headers } : { text: res.text, headers: res.headers });
      for (const secret of secrets)
        expect(`${res.request.method} ${res.request.url}: ${visible.includes(secret) ? secret : 'clean'}`).toMatch(/: clean$/);
    }
    expect(t.logs.lines.length).toBeGreaterThan(responses.length);
    const logs = t.logs.text();
    for (const secret of secrets) expect(logs.includes(secret) ? secret : 'not logged').toBe('not logged');
    // Overrides are erased when the run ends; keys and passwords are stored only hashed.
    const stored = await everyStoredRow(t.database.db);
    expect(stored).toContain('keeper@example.com');
    for (const secret of secrets) expect(stored.includes(secret) ? secret : 'not stored').toBe('not stored');
  });
});
