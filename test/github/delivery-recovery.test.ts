import { octokitRecoveryGitHub } from '../../app/octokit-recovery-github.js';
import { recoverMissedDeliveries, type RecoveryDeps } from '../../core/github/recover-missed-deliveries.js';
import { RELEASE_GATE_CHECK_NAME } from '../../core/release/record-evidence.js';
import { createDeploymentStore } from '../../db/stores/github/postgres-deployment-store.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/fake-github-server.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { appEnv, appPrivateKey, deliver, pullRequestPayload, settle } from '../support/github-deliveries.js';
import { checkRun, decide, putGate, sha } from '../support/release-api.js';

const SECRET = 'recovery-secret';

describe('missed-delivery recovery', () => {
  let gh: FakeGitHub;
  let t: TestApp;
  let deps: RecoveryDeps;
  let runs = 0;
  let payloads: Map<string, ReturnType<typeof pullRequestPayload>>;
  const recover = () => recoverMissedDeliveries({ ...deps, owner: `test-run-${++runs}` });

  // Each test starts from a GitHub and a shipgate of its own: recovery keeps a cursor over GitHub's
  // delivery list, so what one test delivered would otherwise change what the next one examines.
  beforeEach(async () => {
    payloads = new Map();
    gh = await startFakeGitHub();
    for (const repo of ['acme/app', 'acme/web']) {
      gh.repos.commit(repo, { files: { 'README.md': `${repo}\n` } });
      gh.app.installations.set(repo, 77);
    }
    t = await createTestApp(appEnv(gh, SECRET, appPrivateKey()), { worker: true });
    const { logger, github } = t.deps;
    deps = {
      github: octokitRecoveryGitHub((await github.current()).app!),
      recovery: t.deps.recovery,
      app: t.deps.githubAppStore,
      deployments: t.deps.deployments,
      authorship: t.deps.authorship,
      access: github,
      owner: 'unused',
      pace: async () => {},
      log: (event, fields) => logger.info({ event, ...fields }, event),
    };
    // GitHub redelivers the stored payload to the webhook, signed as the first time.
    gh.deployments.onRedeliver = async (d) => (await deliver(t, d.event, payloads.get(d.guid), { secret: SECRET, id: d.guid })).status;
  });
  afterEach(async () => {
    await t.close();
    await gh.close();
  });

  it('is queued at the worker start, every SHIPGATE_DELIVERY_RECOVERY_SECONDS (300 by default)', async () => {
    const { rows } = await t.database.db.raw(
      `SELECT key, extract(epoch FROM run_at - now()) AS due_in FROM graphile_worker.jobs WHERE task_identifier = 'github_delivery_recovery'`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].key).toBe('github_delivery_recovery');
    expect(Number(rows[0].due_in)).toBeGreaterThan(250);
  });

  it('is not queued without App credentials (GITHUB_TOKEN cannot list the App’s deliveries)', async () => {
    const tokenOnly = await createTestApp(gh.env(), { worker: true });
    try {
      const { rows } = await tokenOnly.database.db.raw(
        `SELECT 1 FROM graphile_worker.jobs WHERE task_identifier = 'github_delivery_recovery'`,
      );
      expect(rows).toHaveLength(0);
    } finally {
      await tokenOnly.close();
    }
  });

  it('redelivers a failed, unclaimed delivery, leaves claimed and successful ones alone, and never looks at the same deliveries twice', async () => {
    const lostSha = sha('recovery-lost');
    const lost = pullRequestPayload('opened', { number: 21, sha: lostSha });
    payloads.set('lost-1', lost);
    const lostAttempt = gh.deployments.addDelivery({ guid: 'lost-1', status_code: 502 });
    // Received by shipgate, but GitHub gave up waiting for the answer.
    const slow = pullRequestPayload('opened', { number: 22, sha: sha('recovery-slow') });
    expect((await deliver(t, 'pull_request', slow, { secret: SECRET, id: 'claimed-1' })).body.status).toBe('queued');
    gh.deployments.addDelivery({ guid: 'claimed-1', status_code: 0 });
    // Failed once, then succeeded on a redelivery someone asked for by hand.
    gh.deployments.addDelivery({ guid: 'retried-ok', status_code: 500 });
    gh.deployments.addDelivery({ guid: 'retried-ok', status_code: 202, redelivery: true });
    // 150 successful deliveries after them: the failed ones are on the second page.
    for (let i = 0; i < 150; i++) gh.deployments.addDelivery({ guid: `ok-${i}`, status_code: 202 });

    const first = await recover();
    expect(first).toMatchObject({ ran: true, examined: 154, redelivered: ['lost-1'] });
    expect(gh.deployments.redeliveryRequests).toEqual([lostAttempt.id]);
    expect(gh.deployments.deliveryListCursors).toHaveLength(2);
    await settle(t);
    // The redelivery reached shipgate and did its work.
    const { rows } = await t.database.db.raw(`SELECT delivery_id FROM github_deliveries WHERE delivery_id = 'lost-1'`);
    expect(rows).toHaveLength(1);
    expect(gh.app.checkRunsOn('acme/app', lostSha, RELEASE_GATE_CHECK_NAME)).toHaveLength(1);

    // Next run: only what happened since (the successful redelivery attempt), one page, nothing asked.
    gh.deployments.deliveryListCursors = [];
    const second = await recover();
    expect(second).toMatchObject({ ran: true, examined: 1, redelivered: [] });
    expect(gh.deployments.deliveryListCursors).toEqual([null]);
    expect((await recover()).examined).toBe(0);
    expect(gh.deployments.redeliveryRequests).toEqual([lostAttempt.id]);
  });

  it('skips an entry of GitHub’s list it cannot act on (a NUL in its guid made every run fail) and recovers the rest', async () => {
    payloads.set('lost-beside-bad', pullRequestPayload('opened', { number: 24, sha: sha('recovery-beside-bad') }));
    const lost = gh.deployments.addDelivery({ guid: 'lost-beside-bad', status_code: 502 });
    gh.deployments.addDelivery({ guid: 'bad\u0000guid', status_code: 502 });
    const run = await recover();
    expect(run).toMatchObject({ ran: true, examined: 1, redelivered: ['lost-beside-bad'] });
    expect(gh.deployments.redeliveryRequests).toEqual([lost.id]);
    expect(t.logs.text()).toContain('github_deliveries_unreadable');
  });

  it('asks for a delivery that keeps failing at most 3 times', async () => {
    payloads.set('always-fails', pullRequestPayload('opened', { number: 23, sha: sha('recovery-fails') }));
    const before = gh.deployments.redeliveryRequests.length;
    gh.deployments.onRedeliver = async () => 503;
    try {
      gh.deployments.addDelivery({ guid: 'always-fails', status_code: 503 });
      for (let i = 0; i < 5; i++) await recover();
    } finally {
      gh.deployments.onRedeliver = async (d) => (await deliver(t, d.event, payloads.get(d.guid), { secret: SECRET, id: d.guid })).status;
    }
    expect(gh.deployments.redeliveryRequests.length - before).toBe(3);
  });

  it('queues again the review of a waiting deployment whose job was lost', async () => {
    // A required check failed, a blocker no wait clears: answered (rejected) at once when reviewed. With
    // nothing recorded, the review would wait for evidence (docs/release-gate.md).
    await putGate(t, 'acme/app', { required_checks: ['ci'] });
    await checkRun(t, { repo_root: 'acme/app', commit_sha: sha('recovery-orphan'), name: 'ci', conclusion: 'failure' });
    const store = createDeploymentStore(t.database.db);
    const request = await store.recordRequest(
      {
        kind: 'deployment_protection_rule',
        repo_root: 'acme/app',
        installation_id: 77,
        environment: 'staging',
        commit_sha: sha('recovery-orphan'),
        ref: 'main',
        run_id: 4711,
        deployment_id: 4711,
      },
      new Date(),
    );
    expect(await store.orphaned(10)).toMatchObject([{ id: request.id }]);
    await recover();
    await settle(t);
    expect(gh.deployments.reviewsOf('acme/app', 4711)).toMatchObject([{ state: 'rejected', environment_name: 'staging' }]);
    expect(await store.orphaned(10)).toEqual([]);
  });

  it('runs one at a time across workers', async () => {
    const reports = await Promise.all([recover(), recover(), recover()]);
    expect(reports.filter((r) => r.ran)).toHaveLength(1);
    expect((await recover()).ran).toBe(true);
  });

  it('sweeps: an open pull request whose delivery was lost gets its check run and comment', async () => {
    const lostHead = sha('sweep-lost');
    gh.app.setPullRequest('acme/web', { number: 12, head_sha: lostHead, head_ref: 'feature-12', base_ref: 'main', state: 'open' });
    // Known from its delivery: left to that delivery's jobs (no check-run lookup).
    const knownHead = sha('sweep-known');
    gh.app.setPullRequest('acme/app', { number: 13, head_sha: knownHead, head_ref: 'feature-13', base_ref: 'main', state: 'open' });
    await deliver(t, 'pull_request', pullRequestPayload('opened', { number: 13, sha: knownHead }), { secret: SECRET });
    await settle(t);
    // Unknown head that already carries shipgate's check run: recorded, not posted again.
    const postedHead = sha('sweep-posted');
    gh.app.setPullRequest('acme/web', { number: 14, head_sha: postedHead, head_ref: 'feature-14', base_ref: 'main', state: 'open' });
    gh.app.checkRuns.push({
      id: 1,
      repo: 'acme/web',
      head_sha: postedHead,
      name: RELEASE_GATE_CHECK_NAME,
      status: 'completed',
      conclusion: 'failure',
      details_url: '',
      output: { title: 'x', summary: 'x' },
      app_id: gh.app.appId,
    });
    const lookups = () => gh.requests.filter((r) => r.method === 'GET' && r.path.includes('/check-runs')).map((r) => r.path);
    const before = lookups().length;

    const report = await recover();
    expect(report.swept).toBe(1);
    await settle(t);
    expect(gh.app.checkRunsOn('acme/web', lostHead, RELEASE_GATE_CHECK_NAME)).toHaveLength(1);
    expect(gh.app.commentsOn('acme/web', 12)).toHaveLength(1);
    // Its authorship was read before it was evaluated, so the agent rules apply to it.
    expect((await decide(t, 'acme/web', lostHead)).authorship).toMatchObject({ status: 'read', pull_request: 12 });
    expect(gh.app.checkRunsOn('acme/web', postedHead)).toHaveLength(1);
    expect(gh.app.commentsOn('acme/web', 14)).toHaveLength(0);
    const swept = lookups().slice(before);
    expect(swept.some((p) => p.includes(knownHead))).toBe(false);
    expect(swept.some((p) => p.includes(postedHead))).toBe(true);

    // Nothing is lost twice: the next sweep finds every head known.
    expect((await recover()).swept).toBe(0);
  });
});
