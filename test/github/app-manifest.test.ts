import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { jest } from '@jest/globals';
import { parse } from 'yaml';
import supertest from 'supertest';
import { createServer } from '../../api/create-server.js';
import { createMetrics } from '../../server/create-metrics.js';
import { buildGitHubWebhook } from '../../server/github-app.js';
import { WEBHOOK_PATH } from '../../server/github-webhook-middleware.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/fake-github-server.js';
import { appEnv, appPrivateKey, deliver, pullRequestPayload, settle } from '../support/github-deliveries.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { startReplica, type Replica } from '../support/second-replica.js';

jest.setTimeout(90_000);

// docs/github-app.md, "Register the App from the studio": GitHub's manifest flow, against the fake GitHub.
const PUBLIC_URL = 'https://gate.acme.example';
const GATE = 'required_checks: [ci]\nrequire_reviewed_release: false\n';
const SHA = 'd'.repeat(40);

let gh: FakeGitHub;
const closing: { close(): Promise<void> }[] = [];
beforeAll(async () => {
  gh = await startFakeGitHub();
});
afterAll(async () => {
  for (const c of closing.reverse()) await c.close();
  await gh?.close();
});

/** shipgate pointed at the fake GitHub, with no App configured (no GITHUB_TOKEN either: nothing could post). */
function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    GHE_HOST: gh.host,
    GHE_PROTOCOL: 'http',
    SHIPGATE_PUBLIC_URL: PUBLIC_URL,
    SHIPGATE_SECRET_KEY: randomBytes(32).toString('base64'),
    ...extra,
  };
}

async function started(extra?: Record<string, string>, options?: { worker?: boolean }): Promise<TestApp> {
  const t = await createTestApp(env(extra), options);
  closing.push(t);
  return t;
}

const callback = (t: { request: TestApp['request'] }, query: Record<string, string>, accept = 'application/json') =>
  t.request.get('/api/v1/github/app/manifest/callback').set('Accept', accept).query(query);

/** Every text value of every row of every table shipgate keeps (its own schema and the job queue). */
async function everythingStored(t: TestApp): Promise<string> {
  const { rows } = await t.database.db.raw(
    `SELECT table_schema, table_name FROM information_schema.tables
     WHERE table_schema IN ('public', 'graphile_worker') AND table_type = 'BASE TABLE'`,
  );
  const dumps: string[] = [];
  for (const { table_schema, table_name } of rows as { table_schema: string; table_name: string }[]) {
    const dumped = await t.database.db.raw(
      `SELECT coalesce(string_agg(x::text, '\n'), '') AS text FROM "${table_schema}"."${table_name}" x`,
    );
    dumps.push(dumped.rows[0].text as string);
  }
  return dumps.join('\n');
}

describe('GET /github/app/manifest', () => {
  it("is app.yml with every URL following SHIPGATE_PUBLIC_URL, and GitHub's new-App page of a user or an organisation", async () => {
    const t = await started();
    const mine = await t.request.get('/api/v1/github/app/manifest').set(t.admin.auth).expect(200);
    const template = parse(fs.readFileSync('app.yml', 'utf8')) as Record<string, unknown>;
    expect(mine.body.post_url).toBe(`http://${gh.host}/settings/apps/new`);
    expect(mine.body.manifest).toMatchObject({
      name: template.name,
      default_permissions: template.default_permissions,
      default_events: template.default_events,
      hook_attributes: { url: `${PUBLIC_URL}${WEBHOOK_PATH}` },
      redirect_url: `${PUBLIC_URL}/api/v1/github/app/manifest/callback`,
      callback_urls: [`${PUBLIC_URL}/api/v1/auth/github/callback`],
      setup_url: `${PUBLIC_URL}/studio#/github`,
    });
    expect(mine.body.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(mine.body.expires_at) - Date.now()).toBeGreaterThan(9 * 60_000);
    // Only the state's hash is stored.
    expect(await everythingStored(t)).not.toContain(mine.body.state);

    const org = await t.request.get('/api/v1/github/app/manifest?organization=acme-corp').set(t.admin.auth).expect(200);
    expect(org.body.post_url).toBe(`http://${gh.host}/organizations/acme-corp/settings/apps/new`);
    expect(org.body.state).not.toBe(mine.body.state);
    const operator = await t.user('OPERATOR');
    await t.request.get('/api/v1/github/app/manifest').set(operator.auth).expect(403);
  });

  it('is refused while SHIPGATE_PUBLIC_URL is not set, and while the environment configures an App', async () => {
    const noUrl = await createTestApp({ GHE_HOST: gh.host, GHE_PROTOCOL: 'http' });
    closing.push(noUrl);
    const refused = await noUrl.request.get('/api/v1/github/app/manifest').set(noUrl.admin.auth).expect(409);
    expect(refused.body.detail).toMatch(/^SHIPGATE_PUBLIC_URL is not set/);

    const fromEnv = await started(appEnv(gh, 'env-secret', appPrivateKey()));
    const taken = await fromEnv.request.get('/api/v1/github/app/manifest').set(fromEnv.admin.auth).expect(409);
    expect(taken.body.detail).toMatch(/configured by environment variables .* take precedence/);
    const status = await fromEnv.request.get('/api/v1/github/app').set(fromEnv.admin.auth).expect(200);
    expect(status.body).toMatchObject({ configured: true, source: 'environment', registered: false });
  });
});

describe('GET /github/app/manifest/callback', () => {
  it('refuses an unknown and an expired state, to an API caller (422) and to a browser (back to the studio), without using the code', async () => {
    const t = await started();
    const form = await t.request.get('/api/v1/github/app/manifest').set(t.admin.auth).expect(200);
    const { code } = gh.manifests.confirm(form.body.manifest);
    const unknown = await callback(t, { code, state: 'not-a-state-we-gave' }).expect(422);
    expect(JSON.stringify(unknown.body.detail)).toContain('unknown, already used or expired');

    const hash = createHash('sha256').update(form.body.state).digest('hex');
    await t.database
      .db('github_app_manifest_states')
      .where({ state_sha256: hash })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const expired = await callback(t, { code, state: form.body.state }, 'text/html,application/xhtml+xml').expect(303);
    expect(expired.headers.location).toBe(`${PUBLIC_URL}/studio#/github?error=state`);
    expect(gh.requests.some((r) => r.path === `/app-manifests/${code}/conversions`)).toBe(false);
    expect(await t.database.db('github_app_registrations').count({ n: '*' })).toEqual([{ n: 0 }]);
  });

  it('stores the App sealed; its webhook secret and App id are in force at once here and within seconds on a second replica; a replayed state and a second registration are refused', async () => {
    // Replica A answers the studio and GitHub's redirect; replica B, on the same database, runs the jobs.
    const a = await started();
    const b: Replica = await startReplica(a.database.url, { ...env(), SHIPGATE_SECRET_KEY: a.deps.config.secretKey! }, { worker: true });
    closing.push(b);
    const repo = 'acme/registered';
    gh.app.installations.set(repo, 77);
    gh.repos.commit(repo, { files: { '.github/shipgate.yml': GATE, 'README.md': 'registered\n' } });
    // No App yet: no secret is known, so deliveries are refused (503) in every NODE_ENV.
    expect((await deliver(b as unknown as TestApp, 'ping', { zen: 'hi' }, { secret: null })).status).toBe(503);

    const form = await a.request.get('/api/v1/github/app/manifest').set(a.admin.auth).expect(200);
    const { code, app } = gh.manifests.confirm(form.body.manifest);
    expect(app.manifest.hook_attributes).toEqual({ url: `${PUBLIC_URL}${WEBHOOK_PATH}`, active: true });
    const done = await callback(a, { code, state: form.body.state }, 'text/html');
    expect(done.headers.location).toBe(`${PUBLIC_URL}/studio#/github?registered=${app.slug}`);

    // Stored: id, slug, client id; the secrets sealed. No secret, nor any line of the key, is anywhere in the database.
    const [row] = await a.database.db('github_app_registrations');
    expect(row).toMatchObject({ app_id: app.id, slug: app.slug, client_id: app.clientId });
    const stored = await everythingStored(a);
    for (const secret of [app.webhookSecret, app.clientSecret, ...app.pem.split('\n').filter((line) => line.length > 40)]) {
      expect(stored).not.toContain(secret);
    }
    expect(stored).not.toContain('PRIVATE KEY');
    // Missed-delivery recovery is queued for the new App, as a worker's start does for one from the environment.
    const { rows: recovery } = await a.database.db.raw(
      "SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE task_identifier = 'github_delivery_recovery'",
    );
    expect(recovery).toEqual([{ n: 1 }]);
    const status = await a.request.get('/api/v1/github/app').set(a.admin.auth).expect(200);
    expect(status.body).toMatchObject({
      configured: true,
      source: 'registration',
      app_id: String(app.id),
      slug: app.slug,
      install_url: `http://${gh.host}/apps/${app.slug}/installations/new`,
    });
    expect(JSON.stringify(status.body)).not.toContain(app.webhookSecret);

    // Replica A: the new secret at once; an unsigned or wrongly signed delivery is refused.
    expect((await deliver(a, 'ping', { zen: 'a' }, { secret: null })).status).toBe(401);
    expect((await deliver(a, 'ping', { zen: 'a' }, { secret: 'old-or-wrong' })).status).toBe(401);
    expect((await deliver(a, 'ping', { zen: 'a' }, { secret: app.webhookSecret })).status).toBe(202);
    // Replica B, which cached "no App" before, within seconds and without a restart.
    const deadline = Date.now() + 10_000;
    while ((await deliver(b as unknown as TestApp, 'ping', { zen: 'b' }, { secret: null })).status !== 401) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    gh.requests.length = 0;
    const opened = await deliver(b as unknown as TestApp, 'pull_request', pullRequestPayload('opened', { number: 3, sha: SHA }, repo), {
      secret: app.webhookSecret,
    });
    expect([opened.status, opened.body]).toEqual([202, { status: 'queued' }]);
    await settle(b as unknown as TestApp);
    // B's worker posted the check run with the new App's installation token, minted with a JWT the new App signed.
    expect(gh.app.checkRunsOn(repo, SHA)).toHaveLength(1);
    const minted = gh.requests.filter((r) => r.path === '/app/installations/77/access_tokens');
    expect(minted.length).toBeGreaterThan(0);
    const jwt = String(minted[0].headers.authorization).replace(/^bearer /i, '');
    expect(JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString()).iss).toBe(app.id);
    const posted = gh.requests.filter((r) => r.method === 'POST' && r.path === `/repos/${repo}/check-runs`);
    expect(posted.map((r) => r.headers.authorization)).toEqual(['token ghs_installation_77']);

    // The same state again: refused, whatever the code.
    const replayed = await callback(a, { code, state: form.body.state }).expect(422);
    expect(JSON.stringify(replayed.body.detail)).toContain('already used');
    // A second registration: the form is refused, and so is a state handed out before the first one finished.
    const again = await a.request.get('/api/v1/github/app/manifest').set(a.admin.auth).expect(409);
    expect(again.body.detail).toMatch(/already registered/);
    const early = randomBytes(32).toString('base64url');
    await a.deps.appRegistration.store.createState(
      createHash('sha256').update(early).digest('hex'),
      null,
      a.admin.id,
      new Date(Date.now() + 60_000),
    );
    const second = gh.manifests.confirm(form.body.manifest);
    const refused = await callback(a, { code: second.code, state: early }).expect(409);
    expect(refused.body.detail).toMatch(/already registered/);
    expect(await a.database.db('github_app_registrations').select('app_id')).toEqual([{ app_id: app.id }]);
    // A replica with another SHIPGATE_SECRET_KEY cannot open the App's secrets: it says so (503), and never guesses.
    const stranger = await startReplica(a.database.url, env());
    closing.push(stranger);
    const wrongKey = await deliver(stranger as unknown as TestApp, 'ping', { zen: 'c' }, { secret: app.webhookSecret });
    expect([wrongKey.status, wrongKey.body.detail]).toEqual([
      503,
      expect.stringMatching(/do not open with this process's SHIPGATE_SECRET_KEY/),
    ]);
  });
});

describe('the webhook before any secret is known', () => {
  it('refuses deliveries with 503 in every NODE_ENV until WEBHOOK_SECRET is set or the App is registered (SHIPGATE_ALLOW_UNSIGNED_WEBHOOKS takes them)', async () => {
    const t = await started();
    const as = (env: string, allowUnsigned = false) => {
      const config = { ...t.deps.config, env, github: { ...t.deps.config.github, allowUnsignedWebhooks: allowUnsigned } };
      const app = createServer(
        { ...t.deps, config },
        { metrics: createMetrics(false), rawBodyRoutes: [buildGitHubWebhook({ ...t.deps, config })] },
      );
      return { request: supertest(app.callback()), deps: t.deps } as unknown as TestApp;
    };
    for (const env of ['production', 'development', 'test']) {
      const refused = await deliver(as(env), 'ping', { zen: `early-${env}` }, { secret: null });
      expect([env, refused.status, refused.body.detail]).toEqual([env, 503, expect.stringMatching(/^No webhook secret is known yet/)]);
      expect((await deliver(as(env, true), 'ping', { zen: `allowed-${env}` }, { secret: null })).status).toBe(202);
    }
  });
});
