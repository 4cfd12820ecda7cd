import { ROLES } from '../../core/accounts/roles.js';
import { createWorkerHeartbeatStore } from '../../db/stores/release/worker-heartbeats.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { checkRun, decide, promote, putGate, sha } from '../support/release-api.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const health = async (query: Record<string, string> = {}, app = t) => {
  const res = await app.request.get('/api/v1/releases/health').set(app.admin.auth).query(query);
  expect(res.status).toBe(200);
  return res.body;
};
const beat = (app = t) => createWorkerHeartbeatStore(app.database.db).beat('worker-1');

describe('GET /releases/health', () => {
  it('answers 401 without a key and 200 for every role', async () => {
    expect((await t.request.get('/api/v1/releases/health')).status).toBe(401);
    for (const role of ROLES) expect((await t.request.get('/api/v1/releases/health').set((await t.user(role)).auth)).status).toBe(200);
  });

  it('is degraded without a worker heartbeat in the last minute, and healthy with one', async () => {
    // A service of its own: no heartbeat, nothing attested and no gated repository, whatever ran before.
    const fresh = await createTestApp();
    try {
      const cold = await health({}, fresh);
      expect(cold).toMatchObject({
        status: 'degraded',
        verification_graph: { reachable: true, latency_ms: expect.any(Number) },
        latest_attested_snapshot: null,
        runtime_evidence: { missing: true, items: [{ kind: 'worker_heartbeat', name: 'worker', repo_root: null, commit_sha: null }] },
      });
      await fresh.database.db('worker_heartbeats').insert({ worker_id: 'old', seen_at: new Date(Date.now() - 120_000) });
      expect((await health({}, fresh)).status).toBe('degraded');
      await beat(fresh);
      expect(await health({}, fresh)).toMatchObject({
        status: 'healthy',
        runtime_evidence: { missing: false, items: [] },
        checked_at: expect.any(String),
      });
    } finally {
      await fresh.close();
    }
  });

  it('reports the latest attested snapshot as fresh, then stale past attestation_max_age_seconds', async () => {
    await beat();
    const repo = 'acme/health-fresh';
    await putGate(t, repo, { require_reviewed_release: false, attestation_max_age_seconds: 3600 });
    const commit = sha('health-fresh');
    await checkRun(t, { repo_root: repo, commit_sha: commit, name: 'ci' });
    const d = await decide(t, repo, commit);
    await promote(t, { snapshot_id: d.snapshot_id, target_status: 'attested' });
    const fresh = await health({ repo_root: repo });
    expect(fresh).toMatchObject({
      status: 'healthy',
      latest_attested_snapshot: {
        snapshot_id: d.snapshot_id,
        repo_root: repo,
        commit_sha: commit,
        max_age_seconds: 3600,
        fresh: true,
        age_seconds: expect.any(Number),
      },
    });
    expect(fresh.latest_attested_snapshot.age_seconds).toBeLessThan(60);
    await t.database
      .db('snapshots')
      .where({ id: d.snapshot_id })
      .update({ attested_at: new Date(Date.now() - 7200_000) });
    const stale = await health({ repo_root: repo });
    expect(stale).toMatchObject({
      status: 'degraded',
      latest_attested_snapshot: { fresh: false, max_age_seconds: 3600 },
      runtime_evidence: { missing: false },
    });
    expect(stale.latest_attested_snapshot.age_seconds).toBeGreaterThanOrEqual(7200);
  });

  it('lists the required checks and evidence missing from the latest candidate of each gated repository', async () => {
    await beat();
    const repo = 'acme/health-missing';
    await putGate(t, repo, { required_checks: ['ci', 'e2e'], required_evidence: ['sbom'] });
    const commit = sha('health-missing');
    await checkRun(t, { repo_root: repo, commit_sha: commit, name: 'ci' });
    await decide(t, repo, commit);
    const body = await health();
    expect(body.status).toBe('degraded');
    expect(body.runtime_evidence).toEqual({
      missing: true,
      items: [
        { kind: 'check_run', name: 'e2e', repo_root: repo, commit_sha: commit },
        { kind: 'evidence', name: 'sbom', repo_root: repo, commit_sha: commit },
      ],
    });
    expect((await health({ repo_root: 'acme/health-fresh' })).runtime_evidence.items).toEqual([]);
  });

  it('a conditional check the latest candidate did not need is not missing; one its unknown files made required is', async () => {
    await beat();
    const repo = 'acme/health-conditional';
    await putGate(t, repo, { required_checks: ['ci', { name: 'e2e', paths: ['src/**'] }] });
    const docsOnly = sha('health-conditional-docs');
    const file = { path: 'docs/guide.md', previous_path: null, status: 'modified', additions: 1, deletions: 0 };
    await t.deps.authorship.save(repo, docsOnly, {
      number: 3,
      status: 'read',
      reason: null,
      facts: {
        ...{ number: 3, head_sha: docsOnly, author: { login: 'alice', type: 'User' }, assignees: [], commits: [], reviews: [] },
        files: { status: 'read', reason: null, total: 1, files: [file] },
      },
    });
    await checkRun(t, { repo_root: repo, commit_sha: docsOnly, name: 'ci' });
    expect((await decide(t, repo, docsOnly)).decision).toBe('SHIP');
    expect((await health({ repo_root: repo })).runtime_evidence.items).toEqual([]);

    const pushed = sha('health-conditional-push');
    await checkRun(t, { repo_root: repo, commit_sha: pushed, name: 'ci' });
    await decide(t, repo, pushed);
    expect((await health({ repo_root: repo })).runtime_evidence.items).toEqual([
      { kind: 'check_run', name: 'e2e', repo_root: repo, commit_sha: pushed },
    ]);
  });

  it('judges a repository by its newest snapshot: once its SHIP snapshot is attested, an older NO_SHIP one does not count', async () => {
    await beat();
    const repo = 'acme/health-superseded';
    await putGate(t, repo, { required_checks: ['ci'], require_reviewed_release: false });
    const commit = sha('health-superseded');
    expect((await decide(t, repo, commit)).decision).toBe('NO_SHIP'); // polled before CI reported: nothing recorded
    await checkRun(t, { repo_root: repo, commit_sha: commit, name: 'ci' });
    const ship = await decide(t, repo, commit);
    expect(ship.decision).toBe('SHIP');
    await promote(t, { snapshot_id: ship.snapshot_id, target_status: 'attested' });
    expect(await health({ repo_root: repo })).toMatchObject({ status: 'healthy', runtime_evidence: { missing: false, items: [] } });
  });

  it('reports a signing key that does not verify under the published keys as missing runtime evidence', async () => {
    await beat();
    const release = t.deps.release;
    t.deps.release = { ...release, verifier: { verify: () => ({ verified: false, reason: 'unknown_key' }) } };
    try {
      const body = await health({ repo_root: 'acme/nothing-here' });
      expect(body.status).toBe('degraded');
      expect(body.runtime_evidence.items).toEqual([{ kind: 'signing_key', name: t.deps.signer.keyid, repo_root: null, commit_sha: null }]);
    } finally {
      t.deps.release = release;
    }
  });

  it('is failed when the verification graph (the store) is unreachable', async () => {
    const release = t.deps.release;
    t.deps.release = { ...release, store: { ...release.store, ping: () => Promise.reject(new Error('connection refused')) } };
    try {
      expect(await health()).toMatchObject({ status: 'failed', verification_graph: { reachable: false }, latest_attested_snapshot: null });
    } finally {
      t.deps.release = release;
    }
  });
});
