import { createTestApp, type TestApp } from '../support/test-app.js';
import { checkRun, decide, promote, putGate, sha } from '../support/release-api.js';

// What clients read from a decision instead of copying the rules (docs/release-gate.md): each
// blocker's `waitable`, the studio's `decision_url`, the snapshot's `allowed_promotions`.
let t: TestApp;
const REPO = 'acme/client-fields';
const PUBLIC_URL = 'https://gate.example.com';

beforeAll(async () => {
  t = await createTestApp({ SHIPGATE_PUBLIC_URL: `${PUBLIC_URL}/` });
  await putGate(t, REPO, { required_checks: ['build', 'lint'], required_evidence: ['sbom'], require_reviewed_release: false });
});
afterAll(async () => {
  await t.close();
});

describe('waitable blockers', () => {
  it('nothing recorded yet: waitable', async () => {
    const body = await decide(t, REPO, sha('client-fields-nothing'));
    expect(body.blockers.map((b: { code: string; waitable: boolean }) => [b.code, b.waitable])).toEqual([['no_evidence', true]]);
  });

  it('a pending check, a missing check and missing evidence are waitable; a failed check is not', async () => {
    const commit = sha('client-fields-mixed');
    await checkRun(t, { repo_root: REPO, commit_sha: commit, name: 'build', status: 'in_progress', conclusion: null, completed_at: null });
    const waiting = await decide(t, REPO, commit);
    expect(waiting.blockers.map((b: { code: string; waitable: boolean }) => [b.code, b.waitable])).toEqual([
      ['required_check_pending', true],
      ['required_check_missing', true],
      ['required_evidence_missing', true],
    ]);
    await checkRun(t, { repo_root: REPO, commit_sha: commit, name: 'build', conclusion: 'failure' });
    const failed = await decide(t, REPO, commit);
    expect(failed.blockers.find((b: { code: string }) => b.code === 'required_check_failed')).toMatchObject({ waitable: false });
  });
});

describe('decision_url', () => {
  const commit = sha('client-fields-url');

  it("is the studio's page under SHIPGATE_PUBLIC_URL (its trailing slash dropped), whatever address was asked", async () => {
    const res = await t.request
      .get('/api/v1/releases/decision')
      .set('Host', 'gate.internal:8443')
      .set(t.admin.auth)
      .query({ repo_root: REPO, commit_sha: commit });
    expect(res.body.decision_url).toBe(`${PUBLIC_URL}/studio#/releases/${REPO}/${commit}`);
  });

  it('without SHIPGATE_PUBLIC_URL, is under the origin the request was made to (not the listen address)', async () => {
    const unset = await createTestApp();
    try {
      const res = await unset.request
        .get('/api/v1/releases/decision')
        .set('Host', 'gate.internal:8443')
        .set(unset.admin.auth)
        .query({ repo_root: REPO, commit_sha: commit });
      expect(res.body.decision_url).toBe(`http://gate.internal:8443/studio#/releases/${REPO}/${commit}`);
    } finally {
      await unset.close();
    }
  });
});

describe('allowed_promotions', () => {
  it('NO_SHIP candidate: rejected only', async () => {
    expect((await decide(t, REPO, sha('client-fields-no-ship'))).allowed_promotions).toEqual(['rejected']);
  });

  it('follows the snapshot: SHIP candidate, attested, promoted, revoked', async () => {
    const repo = 'acme/client-fields-ship';
    const commit = sha('client-fields-ship');
    await putGate(t, repo, { required_checks: ['build'], required_evidence: [], require_reviewed_release: false });
    await checkRun(t, { repo_root: repo, commit_sha: commit, name: 'build' });
    const candidate = await decide(t, repo, commit);
    expect(candidate.allowed_promotions).toEqual(['attested', 'rejected']);
    const steps: [string, string[]][] = [
      ['attested', ['promoted', 'revoked']],
      ['promoted', ['revoked']],
      ['revoked', []],
    ];
    for (const [target, next] of steps) {
      expect((await promote(t, { snapshot_id: candidate.snapshot_id, target_status: target })).status).toBe(201);
      expect((await decide(t, repo, commit)).allowed_promotions).toEqual(next);
    }
  });
});
