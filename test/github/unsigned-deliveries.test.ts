import { createTestApp, type TestApp } from '../support/test-app.js';
import { appEnv, appPrivateKey, checkRunPayload, deliver, settle } from '../support/github-deliveries.js';
import { decide } from '../support/release-api.js';
import { useAppWithFakeGitHub } from './support/app-with-fake-github.js';

// docs/github-app.md, "Webhook signatures": in every NODE_ENV (here: unset, as `npm start` leaves it),
// a forged check_run can turn no decision.
const SECRET = 'unsigned-deliveries-secret';
const GATE = 'required_checks: [build]\nrequire_reviewed_release: false\n';
const stack = useAppWithFakeGitHub({ secret: SECRET, installationId: 64, gate: GATE });
let runIds = 64000;

/** The App's environment without any webhook secret (the App's credentials stay). */
function withoutSecret(extra: Record<string, string> = {}): Record<string, string> {
  const { WEBHOOK_SECRET: _secret, ...env } = appEnv(stack.gh, SECRET, appPrivateKey());
  return { ...env, ...extra };
}

const passingBuild = (repo: string, sha: string) =>
  checkRunPayload('completed', { id: runIds++, name: 'build', sha, conclusion: 'success' }, repo);

async function recorded(t: TestApp, repo: string): Promise<number> {
  const { rows } = await t.database.db.raw('SELECT count(*)::int AS n FROM evidence WHERE repo_root = ?', [repo]);
  return rows[0].n;
}

describe('an unsigned check_run with App credentials and NODE_ENV unset', () => {
  it('is refused with 401 while a secret is known, and changes no decision; the signed one ships', async () => {
    expect(stack.t.deps.config.env).not.toBe('production');
    const repo = 'acme/forged';
    const sha = stack.repository(repo);
    expect((await decide(stack.t, repo, sha)).decision).toBe('NO_SHIP');

    const forged = await deliver(stack.t, 'check_run', passingBuild(repo, sha), { secret: null });
    expect([forged.status, forged.body]).toEqual([401, { detail: 'Missing X-Hub-Signature-256.' }]);
    const wrong = await deliver(stack.t, 'check_run', passingBuild(repo, sha), { secret: 'a-guess' });
    expect([wrong.status, wrong.body]).toEqual([401, { detail: 'Invalid X-Hub-Signature-256.' }]);
    await settle(stack.t);
    expect(await recorded(stack.t, repo)).toBe(0);
    expect((await decide(stack.t, repo, sha)).decision).toBe('NO_SHIP');
    expect((await stack.t.request.get('/readyz').expect(200)).body).toEqual({ status: 'ready', webhook_deliveries: 'verified' });

    // The same delivery signed with the App's secret is what GitHub sends: it ships.
    await stack.send('check_run', passingBuild(repo, sha));
    expect((await decide(stack.t, repo, sha)).decision).toBe('SHIP');
  });

  it('is refused with 503 while no secret is known, and changes no decision; the start-up says so', async () => {
    const t = await createTestApp(withoutSecret(), { worker: true });
    try {
      expect(t.deps.config.env).not.toBe('production');
      expect(t.logs.events('webhook_secret_missing')).toEqual([expect.objectContaining({ level: 40 })]);
      const repo = 'acme/secretless';
      const sha = stack.repository(repo);
      expect((await decide(t, repo, sha)).decision).toBe('NO_SHIP');
      const refused = await deliver(t, 'check_run', passingBuild(repo, sha), { secret: null });
      expect([refused.status, refused.body.detail]).toEqual([503, expect.stringMatching(/^No webhook secret is known yet/)]);
      // A signature made with a guessed secret is no better.
      expect((await deliver(t, 'check_run', passingBuild(repo, sha), { secret: SECRET })).status).toBe(503);
      await settle(t);
      expect(await recorded(t, repo)).toBe(0);
      expect((await decide(t, repo, sha)).decision).toBe('NO_SHIP');
      const { rows } = await t.database.db.raw('SELECT count(*)::int AS n FROM github_deliveries');
      expect(rows[0].n).toBe(0);
      expect((await t.request.get('/readyz').expect(200)).body).toEqual({ status: 'ready', webhook_deliveries: 'refused' });
      const status = await t.request.get('/api/v1/github/app').set(t.admin.auth).expect(200);
      expect(status.body.webhook_deliveries).toBe('refused');
    } finally {
      await t.close();
    }
  });

  it('with SHIPGATE_ALLOW_UNSIGNED_WEBHOOKS=true and no secret, is accepted and logged as unsigned at start and on each delivery', async () => {
    const t = await createTestApp(withoutSecret({ SHIPGATE_ALLOW_UNSIGNED_WEBHOOKS: 'true' }), { worker: true });
    try {
      expect(t.logs.events('webhook_unsigned')).toEqual([expect.objectContaining({ level: 40 })]);
      expect((await t.request.get('/readyz').expect(200)).body).toEqual({ status: 'ready', webhook_deliveries: 'unsigned' });
      const status = await t.request.get('/api/v1/github/app').set(t.admin.auth).expect(200);
      expect(status.body.webhook_deliveries).toBe('unsigned');

      const repo = 'acme/experiment';
      const sha = stack.repository(repo);
      const accepted = await deliver(t, 'check_run', passingBuild(repo, sha), { secret: null, id: 'unsigned-1' });
      expect([accepted.status, accepted.body]).toEqual([202, { status: 'queued' }]);
      await settle(t);
      expect((await decide(t, repo, sha)).decision).toBe('SHIP');
      expect(t.logs.events('webhook_unsigned_delivery')).toEqual([
        expect.objectContaining({ level: 40, github_event: 'check_run', delivery_id: 'unsigned-1' }),
      ]);
    } finally {
      await t.close();
    }
  });

  it('with SHIPGATE_ALLOW_UNSIGNED_WEBHOOKS=true, a known secret is still checked', async () => {
    const t = await createTestApp({ ...appEnv(stack.gh, SECRET, appPrivateKey()), SHIPGATE_ALLOW_UNSIGNED_WEBHOOKS: 'true' });
    try {
      expect(t.logs.events('webhook_unsigned')).toEqual([]);
      const repo = 'acme/flagged';
      const sha = stack.repository(repo);
      expect((await deliver(t, 'check_run', passingBuild(repo, sha), { secret: null })).status).toBe(401);
      expect(t.logs.events('webhook_unsigned_delivery')).toEqual([]);
      expect((await t.request.get('/readyz').expect(200)).body.webhook_deliveries).toBe('verified');
    } finally {
      await t.close();
    }
  });
});
