import { startFakeLlm, type FakeLlm } from '../fakes/fake-llm-server.js';
import { createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { writesReports } from './support/agent-replies.js';
import { waitFor } from './support/wait-for.js';

const OVERRIDE = 'sk-stage-override-7f3a9c41d2';
const SERVICE_KEY = 'sk-service-wide-0000000000';

let llm: FakeLlm;
let t: TestApp;
let operator: TestUser;
const seen: string[] = [];

beforeAll(async () => {
  // The fake accepts only the override: a run that used the service's own key would fail with 401.
  llm = await startFakeLlm({ apiKey: OVERRIDE });
  llm.otherwise(writesReports(1, 'Done with the stage key.'));
  t = await createTestApp({ ...llm.env(SERVICE_KEY), LOG_LEVEL: 'debug' }, { worker: true });
  operator = await t.user('OPERATOR');
});
afterAll(async () => {
  await t.close();
  await llm.close();
});

/** Every response body the test saw, to search for the key afterwards. */
async function call<T extends { text: string; body: unknown; status: number }>(pending: PromiseLike<T>): Promise<T> {
  const res = await pending;
  seen.push(res.text ?? JSON.stringify(res.body));
  return res;
}

async function runWithOverride(provider: 'openai' | 'anthropic'): Promise<string> {
  const created = await call(
    t.request
      .post('/api/v1/tasks')
      .set(operator.auth)
      .send({ task: `Use the stage key (${provider}).`, provider, api_key: OVERRIDE }),
  );
  expect(created.status).toBe(201);
  expect(created.body.api_key_override).toBe(true);
  expect(created.body).not.toHaveProperty('api_key');
  const id = created.body.id as string;
  await waitFor(
    async () => (await call(t.request.get(`/api/v1/executions/${id}`).set(operator.auth))).body.status,
    (s) => !['queued', 'running'].includes(s),
  );
  return id;
}

describe('a per-execution api_key override', () => {
  it('reaches the provider as its credential, for OpenAI and for Anthropic', async () => {
    const before = llm.requests.length;
    const openaiRun = await runWithOverride('openai');
    const anthropicRun = await runWithOverride('anthropic');
    for (const id of [openaiRun, anthropicRun]) {
      const done = await call(t.request.get(`/api/v1/executions/${id}`).set(operator.auth));
      expect(done.body).toMatchObject({ status: 'completed', output: 'Done with the stage key.', api_key_override: true });
    }
    const requests = llm.requests.slice(before);
    const openaiRequests = requests.filter((r) => r.api === 'openai');
    const anthropicRequests = requests.filter((r) => r.api === 'anthropic');
    expect(openaiRequests).toHaveLength(2);
    expect(anthropicRequests).toHaveLength(2);
    for (const r of openaiRequests) expect(r.headers.authorization).toBe(`Bearer ${OVERRIDE}`);
    // This Anthropic SDK sends the key as a bearer token; older ones use x-api-key. Either way it is the override.
    for (const r of anthropicRequests) expect(r.headers['x-api-key'] ?? r.headers.authorization?.replace(/^Bearer /, '')).toBe(OVERRIDE);
  });

  it('is not used by executions without one (they run on the service key)', async () => {
    const created = await call(t.request.post('/api/v1/tasks').set(operator.auth).send({ task: 'No override here.' }));
    const id = created.body.id as string;
    const done = await waitFor(
      async () => (await call(t.request.get(`/api/v1/executions/${id}`).set(operator.auth))).body,
      (e) => e.status === 'failed',
    );
    expect(done).toMatchObject({ api_key_override: false, error: { code: 'provider_error' } });
    expect(llm.requests.at(-1)!.headers.authorization).toBe(`Bearer ${SERVICE_KEY}`);
  });

  it('appears in no response, export or log line, and is erased from storage once the run ended', async () => {
    const id = await runWithOverride('openai');
    await call(t.request.get('/api/v1/executions?limit=100').set(operator.auth));
    await call(t.request.get(`/api/v1/executions/${id}/tool-calls`).set(operator.auth));
    const exported = await call(t.request.get(`/api/v1/compliance/${id}/export`).set(operator.auth));
    expect(exported.status).toBe(200);
    await call(t.request.delete(`/api/v1/executions/${id}`).set(operator.auth));
    await call(t.request.get('/openapi.json'));

    for (const text of seen) expect(text).not.toContain(OVERRIDE);
    expect(t.logs.lines.length).toBeGreaterThan(0);
    expect(t.logs.text()).not.toContain(OVERRIDE);

    const rows = await t.database.db('executions').where({ api_key_override: true }).select('id', 'status', 'api_key_ciphertext');
    // This run's row, and those of any earlier test in the file.
    expect(rows.map((row) => row.id)).toContain(id);
    for (const row of rows) expect(row).toMatchObject({ status: 'completed', api_key_ciphertext: null });
    // Nowhere else in the stored run either.
    for (const table of ['executions', 'execution_messages', 'tool_calls', 'certificates', 'artifacts']) {
      const { rows: hits } = await t.database.db.raw(`SELECT count(*)::int AS n FROM ${table} t WHERE t::text LIKE ?`, [`%${OVERRIDE}%`]);
      expect({ table, hits: hits[0].n }).toEqual({ table, hits: 0 });
    }
  });
});
