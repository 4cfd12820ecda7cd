import { startFakeGitHub, type FakeGitHub } from '../fakes/fake-github-server.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { appEnv, appPrivateKey, checkRunPayload, deliver, settle } from '../support/github-deliveries.js';
import { deploymentRulePayload } from '../support/deployment-deliveries.js';
import { checkRun, promote, putGate, sha } from '../support/release-api.js';
import { createDeploymentStore } from '../../db/stores/github/postgres-deployment-store.js';

const SECRET = 'deployment-rule-secret';
const REPO = 'acme/app';
const LINK = 'https://shipgate.example/studio#/releases/acme/app/';

describe('custom deployment protection rule', () => {
  let gh: FakeGitHub;
  let t: TestApp;
  let runId = 9000;

  async function requestDeployment(repo: string, commit: string, environment: string, options: { id?: string; runId?: number } = {}) {
    const payload = deploymentRulePayload(repo, { sha: commit, environment, runId: options.runId ?? ++runId });
    const res = await deliver(t, 'deployment_protection_rule', payload, { secret: SECRET, id: options.id });
    expect([res.status, res.body.status]).toEqual([202, 'queued']);
    await settle(t);
    return payload;
  }
  const reviewsOf = (repo: string, run: number) => gh.deployments.reviewsOf(repo, run);

  beforeAll(async () => {
    gh = await startFakeGitHub();
    for (const repo of [REPO, 'acme/slow', 'acme/now', 'acme/listed']) {
      gh.repos.commit(repo, { files: { 'README.md': `${repo}\n` } });
      gh.app.installations.set(repo, 77);
    }
    t = await createTestApp(appEnv(gh, SECRET, appPrivateKey()), { worker: true });
    await putGate(t, REPO, {
      required_checks: ['ci'],
      require_reviewed_release: false,
      environments: { production: { require_attested: true } },
    });
  });
  afterAll(async () => {
    await t.close();
    await gh.close();
  });

  it('approves a SHIP commit with the installation token, and rejects a NO_SHIP commit naming its blockers', async () => {
    const ship = sha('deploy-ship');
    await checkRun(t, { repo_root: REPO, commit_sha: ship, name: 'ci' });
    const approved = await requestDeployment(REPO, ship, 'staging');
    const [review] = reviewsOf(REPO, runId);
    expect(review).toMatchObject({ environment_name: 'staging', state: 'approved', token: 'ghs_installation_77' });
    expect(review.comment).toContain('SHIP');
    expect(review.comment).toContain(`${LINK}${ship}`);
    expect(approved.deployment.sha).toBe(ship);

    const noShip = sha('deploy-no-ship');
    await checkRun(t, { repo_root: REPO, commit_sha: noShip, name: 'ci', conclusion: 'failure' });
    await requestDeployment(REPO, noShip, 'staging');
    const [rejected] = reviewsOf(REPO, runId);
    expect(rejected.state).toBe('rejected');
    expect(rejected.comment).toContain('NO_SHIP: 1 blocker');
    expect(rejected.comment).toContain('required_check_failed (check:ci)');
    expect(rejected.comment).toContain(`${LINK}${noShip}`);
    expect(rejected.comment.length).toBeLessThanOrEqual(1024);
  });

  it('waits while a required check is pending and answers when it completes', async () => {
    const pending = sha('deploy-pending');
    let res = await deliver(t, 'check_run', checkRunPayload('created', { id: 901, name: 'ci', sha: pending }), { secret: SECRET });
    expect(res.body.status).toBe('queued');
    await settle(t);
    await requestDeployment(REPO, pending, 'staging');
    const waitingRun = runId;
    expect(reviewsOf(REPO, waitingRun)).toEqual([]);
    const { rows } = await t.database.db.raw('SELECT state FROM deployment_requests WHERE run_id = ?', [waitingRun]);
    expect(rows).toEqual([{ state: 'waiting' }]);

    res = await deliver(t, 'check_run', checkRunPayload('completed', { id: 901, name: 'ci', sha: pending }), { secret: SECRET });
    expect(res.body.status).toBe('queued');
    await settle(t);
    expect(reviewsOf(REPO, waitingRun)).toMatchObject([{ state: 'approved', environment_name: 'staging' }]);
  });

  it('rejects as timed out past deployment_wait_seconds, and at once with 0', async () => {
    await putGate(t, 'acme/slow', { required_checks: ['ci'], require_reviewed_release: false, deployment_wait_seconds: 1 });
    await putGate(t, 'acme/now', { required_checks: ['ci'], require_reviewed_release: false, deployment_wait_seconds: 0 });
    for (const repo of ['acme/slow', 'acme/now']) {
      const commit = sha(`deploy-timeout-${repo}`);
      await checkRun(t, { repo_root: repo, commit_sha: commit, name: 'ci', status: 'in_progress', conclusion: null, completed_at: null });
      const started = Date.now();
      await requestDeployment(repo, commit, 'production');
      const [review] = reviewsOf(repo, runId);
      expect(review.state).toBe('rejected');
      expect(review.comment).toContain(`Timed out after ${repo === 'acme/slow' ? 1 : 0} s waiting for ci`);
      if (repo === 'acme/slow') expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    }
  });

  it('answers a request once across redeliveries (same or new delivery id) and concurrent workers', async () => {
    const commit = sha('deploy-once');
    await checkRun(t, { repo_root: REPO, commit_sha: commit, name: 'ci' });
    const payload = await requestDeployment(REPO, commit, 'staging', { id: 'deploy-once-1' });
    const again = await deliver(t, 'deployment_protection_rule', payload, { secret: SECRET, id: 'deploy-once-1' });
    expect(again.body.status).toBe('duplicate');
    // GitHub may redeliver under a new id: the request is the same (run, environment, deployment).
    const renamed = await deliver(t, 'deployment_protection_rule', payload, { secret: SECRET, id: 'deploy-once-2' });
    expect(renamed.body.status).toBe('queued');
    await settle(t);
    expect(reviewsOf(REPO, runId)).toHaveLength(1);
    // Not even tried twice (GitHub would refuse the second answer): one request row, one call.
    const calls = gh.requests.filter(
      (r) => r.method === 'POST' && r.path === `/repos/${REPO}/actions/runs/${runId}/deployment_protection_rule`,
    );
    expect(calls).toHaveLength(1);
    const { rows } = await t.database.db.raw('SELECT count(*)::int AS n FROM deployment_requests WHERE run_id = ?', [runId]);
    expect(rows[0].n).toBe(1);

    // Two workers answering one waiting request at the same moment: one sends, the other sees it held.
    const store = createDeploymentStore(t.database.db);
    const request = await store.recordRequest(
      {
        kind: 'deployment_protection_rule',
        repo_root: REPO,
        installation_id: 77,
        environment: 'qa',
        commit_sha: commit,
        ref: null,
        run_id: 1,
        deployment_id: 1,
      },
      new Date(),
    );
    let sent = 0;
    const send = async () => {
      sent += 1;
      await new Promise((resolve) => setTimeout(resolve, 200));
    };
    const snapshot = await t.database.db.raw('SELECT id FROM snapshots WHERE commit_sha = ? LIMIT 1', [commit]);
    const answer = {
      state: 'approved' as const,
      decision: 'SHIP' as const,
      snapshot_id: snapshot.rows[0].id as string,
      timed_out: false,
      comment: 'ok',
    };
    const results = await Promise.all([store.answerOnce(request.id, answer, send), store.answerOnce(request.id, answer, send)]);
    expect(results.sort()).toEqual([false, true]);
    expect(sent).toBe(1);
    expect(await store.answerOnce(request.id, answer, send)).toBe(false);
    expect((await store.request(request.id))?.state).toBe('approved');
  });

  it('require_attested: rejects an unattested SHIP commit for production, approves it for staging, and for production once attested', async () => {
    const commit = sha('deploy-attested');
    await checkRun(t, { repo_root: REPO, commit_sha: commit, name: 'ci' });
    await requestDeployment(REPO, commit, 'production');
    const [production] = reviewsOf(REPO, runId);
    expect(production.state).toBe('rejected');
    expect(production.comment).toContain('production requires an attested release');
    await requestDeployment(REPO, commit, 'staging');
    expect(reviewsOf(REPO, runId)).toMatchObject([{ state: 'approved' }]);

    const [recorded] = (await t.request.get('/api/v1/releases/deployments').set(t.admin.auth).query({ repo_root: REPO })).body;
    const attested = await promote(t, { snapshot_id: recorded.snapshot_id, target_status: 'attested' });
    expect(attested.status).toBe(201);
    // GitHub environment names are case-insensitive.
    await requestDeployment(REPO, commit, 'Production');
    expect(reviewsOf(REPO, runId)).toMatchObject([{ state: 'approved', environment_name: 'Production' }]);
  });

  it('lists every answered deployment at GET /releases/deployments, newest first, filtered and paged', async () => {
    // A repository of this test's own: timed out at once, rejected, then approved twice.
    const repo = 'acme/listed';
    await putGate(t, repo, { required_checks: ['ci'], require_reviewed_release: false, deployment_wait_seconds: 0 });
    const pending = sha('listed-pending');
    await checkRun(t, { repo_root: repo, commit_sha: pending, name: 'ci', status: 'in_progress', conclusion: null, completed_at: null });
    await requestDeployment(repo, pending, 'staging');
    const noShip = sha('listed-no-ship');
    await checkRun(t, { repo_root: repo, commit_sha: noShip, name: 'ci', conclusion: 'failure' });
    await requestDeployment(repo, noShip, 'production');
    const ship = sha('listed-ship');
    await checkRun(t, { repo_root: repo, commit_sha: ship, name: 'ci' });
    await requestDeployment(repo, ship, 'staging');
    await requestDeployment(repo, ship, 'Production');

    const viewer = await t.user('VIEWER');
    const all = await t.request.get('/api/v1/releases/deployments').set(viewer.auth).query({ limit: 100 });
    expect(all.status).toBe(200);
    const answeredAt = all.body.map((d: { answered_at: string }) => d.answered_at);
    expect([...answeredAt].sort().reverse()).toEqual(answeredAt);

    const listed = await t.request.get('/api/v1/releases/deployments').set(viewer.auth).query({ repo_root: 'ACME/Listed' });
    type Listed = { repo_root: string; commit_sha: string; environment: string; state: string; decision: string; timed_out: boolean };
    expect(listed.body.map((d: Listed) => [d.repo_root, d.commit_sha, d.environment, d.state, d.decision, d.timed_out])).toEqual([
      [repo, ship, 'Production', 'approved', 'SHIP', false],
      [repo, ship, 'staging', 'approved', 'SHIP', false],
      [repo, noShip, 'production', 'rejected', 'NO_SHIP', false],
      [repo, pending, 'staging', 'rejected', 'NO_SHIP', true],
    ]);
    expect(Object.keys(listed.body[0]).sort()).toEqual(
      [
        'answered_at',
        'comment',
        'commit_sha',
        'decision',
        'deployment_id',
        'environment',
        'id',
        'ref',
        'repo_root',
        'requested_at',
        'run_id',
        'snapshot_id',
        'state',
        'timed_out',
      ].sort(),
    );
    const production = await t.request
      .get('/api/v1/releases/deployments')
      .set(viewer.auth)
      .query({ repo_root: 'ACME/Listed', environment: 'production' });
    expect(production.body.map((d: { state: string }) => d.state)).toEqual(['approved', 'rejected']);

    const seen: string[] = [];
    let url: string | undefined = '/api/v1/releases/deployments?limit=3';
    while (url) {
      const page: { body: { id: string }[]; headers: Record<string, string> } = await t.request.get(url).set(viewer.auth);
      seen.push(...page.body.map((d) => d.id));
      url = /<([^>]+)>; rel="next"/.exec(page.headers.link ?? '')?.[1];
    }
    expect(seen).toEqual(all.body.map((d: { id: string }) => d.id));
  });
});
