import { randomUUID } from 'node:crypto';
import supertest from 'supertest';
import { createServer } from '../../api/create-server.js';
import { createSignatureVerifier } from '../../app/webhook-signature.js';
import { createMetrics } from '../../server/create-metrics.js';
import { loadConfig } from '../../server/load-config.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/fake-github-server.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createGitHubAppStore } from '../../db/stores/github/postgres-github-app-store.js';
import { checkRunPayload, deliver, examplePayload, pullRequestPayload, settle, signature } from '../support/github-deliveries.js';

const SECRET = 'webhook-secret-for-tests';
const SHA = 'a'.repeat(40);

async function deliveries(t: TestApp): Promise<number> {
  const { rows } = await t.database.db.raw('SELECT count(*)::int AS n FROM github_deliveries');
  return rows[0].n;
}

describe('webhook signatures', () => {
  it("accepts GitHub's documented test vector and rejects a changed byte", async () => {
    const verify = createSignatureVerifier("It's a Secret to Everybody");
    const documented = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17';
    expect(await verify('Hello, World!', documented)).toBe(true);
    expect(signature('Hello, World!', "It's a Secret to Everybody")).toBe(documented);
    expect(await verify('Hello, World?', documented)).toBe(false);
    expect(await verify('Hello, World!', undefined)).toBe(false);
    expect(await verify('Hello, World!', 'sha1=0a0b')).toBe(false);
    // An empty body signed with the secret is signed (its answer is then 400, not JSON), and signed otherwise is not.
    expect(await verify('', signature('', "It's a Secret to Everybody"))).toBe(true);
    expect(await verify('', signature('', 'another secret'))).toBe(false);
  });

  describe('with WEBHOOK_SECRET', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ WEBHOOK_SECRET: SECRET });
    });
    afterAll(() => t.close());

    it('is described in /openapi.json by the middleware that serves it: its headers, bodies and exactly the answers it gives', async () => {
      const doc = (await t.request.get('/openapi.json')).body;
      const operation = doc.paths['/api/v1/releases/github-webhook'].post;
      expect(Object.keys(operation.responses)).toEqual(['202', '400', '401', '413', '415', '422', '500', '503']);
      expect(operation.responses['202'].content['application/json'].schema.$ref).toBe('#/components/schemas/GitHubWebhookAck');
      expect(operation.security).toEqual([]);
      expect(
        operation.parameters.map((p: { in: string; name: string; required?: boolean }) => `${p.in}:${p.name}:${p.required ?? false}`),
      ).toEqual(['header:X-GitHub-Event:true', 'header:X-GitHub-Delivery:true', 'header:X-Hub-Signature-256:false']);
      expect(Object.keys(operation.requestBody.content)).toEqual(['application/json', 'application/x-www-form-urlencoded']);
      // A server built without the webhook neither serves nor describes it.
      const bare = supertest(createServer(t.deps, { metrics: createMetrics(false) }).callback());
      expect((await bare.get('/openapi.json')).body.paths['/api/v1/releases/github-webhook']).toBeUndefined();
    });

    it('gives each answer the document lists for it (besides 500 and 503, the error middleware’s)', async () => {
      const payload = pullRequestPayload('opened', { number: 2, sha: SHA });
      const signed = (body: string, contentType: string) =>
        t.request
          .post('/api/v1/releases/github-webhook')
          .set('Content-Type', contentType)
          .set('X-GitHub-Event', 'pull_request')
          .set('X-GitHub-Delivery', randomUUID())
          .set('X-Hub-Signature-256', signature(body, SECRET))
          .send(body);
      const form = `payload=${encodeURIComponent(JSON.stringify(payload))}`;
      expect((await signed(form, 'application/x-www-form-urlencoded')).status).toBe(202);
      expect((await deliver(t, 'pull_request', payload, { secret: null })).status).toBe(401);
      expect((await signed('{', 'application/json')).status).toBe(400);
      expect((await signed('', 'application/json')).status).toBe(400);
      const text = await signed(JSON.stringify(payload), 'text/plain');
      expect([text.status, text.body.detail]).toEqual([
        415,
        'A delivery is application/json or application/x-www-form-urlencoded, as GitHub sends it.',
      ]);
      const unstorable = await deliver(t, 'pull_request', { ...payload, action: 'op\u0000ened' }, { secret: SECRET });
      expect(unstorable.status).toBe(422);
      const huge = await signed('x'.repeat(25 * 1024 * 1024 + 1), 'application/json');
      expect(huge.status).toBe(413);
    });

    it('answers 401 {detail} to a bad or missing signature and records nothing', async () => {
      const before = await deliveries(t);
      const payload = pullRequestPayload('opened', { number: 1, sha: SHA });
      const wrong = await deliver(t, 'pull_request', payload, { secret: 'not-the-secret' });
      expect([wrong.status, wrong.body]).toEqual([401, { detail: 'Invalid X-Hub-Signature-256.' }]);
      const missing = await deliver(t, 'pull_request', payload, { secret: null });
      expect([missing.status, missing.body]).toEqual([401, { detail: 'Missing X-Hub-Signature-256.' }]);
      expect(await deliveries(t)).toBe(before);
      const signed = await deliver(t, 'pull_request', payload, { secret: SECRET });
      expect([signed.status, signed.body]).toEqual([202, { status: 'queued' }]);
      expect(await deliveries(t)).toBe(before + 1);
      expect(t.logs.text()).not.toContain('webhook_unsigned');
      expect(t.logs.text()).not.toContain('webhook_secret_missing');
    });

    it('answers 202 ignored with the reason for events it does not act on, and 400 without the delivery headers', async () => {
      // Labels are a rule's condition (docs/release-gate.md, "Changed files"); an assignee is not.
      const assigned = await deliver(t, 'pull_request', examplePayload('pull_request', 'assigned'), { secret: SECRET });
      expect([assigned.status, assigned.body]).toEqual([
        202,
        { status: 'ignored', reason: 'shipgate does not act on pull_request.assigned.' },
      ]);
      const issues = await deliver(t, 'issues', examplePayload('issues', 'opened'), { secret: SECRET });
      expect(issues.body).toEqual({ status: 'ignored', reason: 'shipgate does not act on issues events.' });
      const body = JSON.stringify(examplePayload('pull_request', 'opened'));
      const headerless = await t.request
        .post('/api/v1/releases/github-webhook')
        .set('Content-Type', 'application/json')
        .set('X-Hub-Signature-256', signature(body, SECRET))
        .send(body);
      expect([headerless.status, headerless.body.detail]).toEqual([
        400,
        'A delivery needs the X-GitHub-Event and X-GitHub-Delivery headers.',
      ]);
      const garbage = '{"action": "opened", ';
      const notJson = await t.request
        .post('/api/v1/releases/github-webhook')
        .set('Content-Type', 'application/json')
        .set('X-GitHub-Event', 'pull_request')
        .set('X-GitHub-Delivery', 'garbage-1')
        .set('X-Hub-Signature-256', signature(garbage, SECRET))
        .send(garbage);
      expect([notJson.status, notJson.body]).toEqual([400, { detail: 'The payload is not JSON.' }]);
      const get = await t.request.get('/api/v1/releases/github-webhook');
      expect([get.status, get.headers.allow]).toEqual([405, 'POST']);
    });
    it('claims a burst of concurrent deliveries together: each answered once durable, a repeated id once, an unstorable one alone', async () => {
      const { rows: before } = await t.database.db.raw(
        "SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE task_identifier = 'github_delivery'",
      );
      const ids = Array.from({ length: 30 }, (_, i) => `burst-${i}`);
      const unstorable = { ...examplePayload('pull_request', 'labeled'), action: 'lab\u0000eled' };
      const answers = await Promise.all([
        ...ids.map((id, i) =>
          deliver(t, 'pull_request', pullRequestPayload('opened', { number: 100 + i, sha: SHA }), { secret: SECRET, id }),
        ),
        deliver(t, 'pull_request', pullRequestPayload('opened', { number: 100, sha: SHA }), { secret: SECRET, id: ids[0] }),
        deliver(t, 'pull_request', unstorable, { secret: SECRET, id: 'burst-unstorable' }),
      ]);
      const statuses = answers.slice(0, 31).map((a) => `${a.status} ${a.body.status}`);
      expect(statuses.filter((s) => s === '202 queued')).toHaveLength(30);
      expect(statuses.filter((s) => s === '202 duplicate')).toHaveLength(1);
      expect(answers[31].status).toBe(422);
      const { rows: jobs } = await t.database.db.raw(
        `SELECT j.payload->>'delivery_id' AS id, j.payload->>'received_at' AS received_at, d.received_at AS recorded
        FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks task ON task.id = j.task_id
        JOIN github_deliveries d ON d.delivery_id = j.payload->>'delivery_id'
        WHERE task.identifier = 'github_delivery' AND j.payload->>'delivery_id' LIKE 'burst-%'`,
      );
      expect(jobs.map((j: { id: string }) => j.id).sort()).toEqual([...ids].sort());
      for (const job of jobs) expect(job.received_at).toBe(job.recorded.toISOString());
      const { rows: after } = await t.database.db.raw(
        "SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE task_identifier = 'github_delivery'",
      );
      expect(after[0].n - before[0].n).toBe(30);
      const { rows: rejected } = await t.database.db.raw(
        "SELECT count(*)::int AS n FROM github_deliveries WHERE delivery_id = 'burst-unstorable'",
      );
      expect(rejected[0].n).toBe(0);
    });
  });

  it('NODE_ENV=production starts without WEBHOOK_SECRET (its deliveries wait for a secret: see app-manifest.test.ts)', () => {
    const production = { NODE_ENV: 'production', SHIPGATE_SIGNING_KEY: '-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----' };
    expect(loadConfig(production).github.webhookSecret).toBeUndefined();
    expect(loadConfig({ ...production, WEBHOOK_SECRET: SECRET }).github.webhookSecret).toBe(SECRET);
  });

  it('refuses deliveries without WEBHOOK_SECRET (503) and warns at start; SHIPGATE_ALLOW_UNSIGNED_WEBHOOKS=true takes them unsigned', async () => {
    const t = await createTestApp();
    try {
      expect(t.logs.events('webhook_secret_missing')).toContainEqual(expect.objectContaining({ level: 40 }));
      const res = await deliver(t, 'pull_request', pullRequestPayload('opened', { number: 3, sha: SHA }), { secret: null });
      expect([res.status, res.body.detail]).toEqual([503, expect.stringMatching(/^No webhook secret is known yet/)]);
      expect(await deliveries(t)).toBe(0);
    } finally {
      await t.close();
    }
    const allowed = await createTestApp({ SHIPGATE_ALLOW_UNSIGNED_WEBHOOKS: 'true' });
    try {
      expect(allowed.logs.events('webhook_unsigned')).toContainEqual(expect.objectContaining({ level: 40 }));
      const res = await deliver(allowed, 'pull_request', pullRequestPayload('opened', { number: 3, sha: SHA }), { secret: null });
      expect([res.status, res.body]).toEqual([202, { status: 'queued' }]);
      expect(allowed.logs.events('webhook_unsigned_delivery')).toHaveLength(1);
    } finally {
      await allowed.close();
    }
  });
});

describe('exactly once', () => {
  let gh: FakeGitHub;
  let t: TestApp;
  beforeAll(async () => {
    gh = await startFakeGitHub();
    gh.repos.commit('acme/app', { files: { 'README.md': 'app\n' } });
    t = await createTestApp({ ...gh.env(), WEBHOOK_SECRET: SECRET }, { worker: true });
  });
  afterAll(async () => {
    await t.close();
    await gh.close();
  });

  it('a storm of 20 concurrent redeliveries of one id has one effect', async () => {
    const id = '72d3162e-cc78-11e3-81ab-4c9367dc0958';
    const opened = pullRequestPayload('opened', { number: 7, sha: SHA });
    const answers = await Promise.all(Array.from({ length: 20 }, () => deliver(t, 'pull_request', opened, { secret: SECRET, id })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(202));
    const statuses = answers.map((a) => a.body.status).sort();
    expect(statuses).toEqual(['queued', ...Array(19).fill('duplicate')].sort());
    await settle(t);
    expect(gh.app.checkRunsOn('acme/app', SHA)).toHaveLength(1);
    expect(gh.app.commentsOn('acme/app', 7)).toHaveLength(1);

    // The same check run delivered 20 times at once is recorded once and posts nothing new.
    const before = gh.requests.length;
    const run = checkRunPayload('completed', { id: 555, name: 'lint', sha: SHA });
    const storm = await Promise.all(Array.from({ length: 20 }, () => deliver(t, 'check_run', run, { secret: SECRET, id: 'storm-2' })));
    expect(storm.filter((a) => a.body.status === 'queued')).toHaveLength(1);
    await settle(t);
    const { rows } = await t.database.db.raw("SELECT count(*)::int AS n FROM evidence WHERE name = 'lint'");
    expect(rows[0].n).toBe(1);
    expect(gh.app.checkRunsOn('acme/app', SHA)).toHaveLength(1);
    expect(gh.app.commentsOn('acme/app', 7)).toHaveLength(1);
    expect(gh.requests.length).toBeGreaterThan(before);
  });

  it('evaluations asked for one head SHA coalesce into one queued job', async () => {
    const store = createGitHubAppStore(t.database.db);
    const target = { repo_root: 'acme/coalesce', commit_sha: 'f'.repeat(40), installation_id: null };
    // Far enough ahead that the worker cannot take the job in between.
    for (let i = 0; i < 5; i += 1) await store.schedulePublish(target, { delaySeconds: 3600 });
    await store.schedulePublish({ ...target, commit_sha: 'e'.repeat(40) }, { delaySeconds: 3600 });
    const { rows } = await t.database.db.raw(
      "SELECT key, count(*)::int AS n FROM graphile_worker.jobs WHERE task_identifier = 'github_publish' AND key LIKE '%acme/coalesce%' GROUP BY key ORDER BY key",
    );
    expect(rows).toEqual([
      { key: `github_publish:acme/coalesce:${'e'.repeat(40)}`, n: 1 },
      { key: `github_publish:acme/coalesce:${'f'.repeat(40)}`, n: 1 },
    ]);
    await t.database.db.raw("DELETE FROM graphile_worker._private_jobs WHERE key LIKE '%acme/coalesce%'");
  });
});
