import { createTestApp, type TestApp } from '../support/test-app.js';
import { checkRun, decide, sha } from '../support/release-api.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const valid = {
  repo_root: 'https://github.com/Acme/Evidence',
  commit_sha: sha('e1').toUpperCase(),
  kind: 'sbom',
  name: 'sbom-scan',
  status: 'passed',
  produced_at: '2025-05-01T10:00:00+02:00',
};

describe('POST /releases/evidence', () => {
  it('records evidence for ADMIN and OPERATOR, normalising names and timestamps', async () => {
    const operator = await t.user('OPERATOR');
    const res = await t.request
      .post('/api/v1/releases/evidence')
      .set(operator.auth)
      .send({ ...valid, digest: 'sha256:' + 'a'.repeat(64), uri: 'https://ci.example.com/run/1', ref: 'refs/heads/main' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      repo_root: 'acme/evidence',
      commit_sha: sha('e1'),
      ref: 'main',
      kind: 'sbom',
      name: 'sbom-scan',
      status: 'passed',
      digest: 'sha256:' + 'a'.repeat(64),
      uri: 'https://ci.example.com/run/1',
      produced_at: '2025-05-01T08:00:00.000Z',
      recorded_by: operator.id,
      workflow_run: null,
      format: null,
      summary: null,
      document: null,
      created_at: expect.any(String),
    });
    expect((await t.request.post('/api/v1/releases/evidence').set(t.admin.auth).send(valid)).status).toBe(201);
    const decision = await decide(t, 'acme/evidence', sha('e1'));
    expect(decision.provenance.evidence).toEqual([
      expect.objectContaining({ name: 'sbom-scan', status: 'passed', produced_at: '2025-05-01T08:00:00.000Z' }),
    ]);
  });

  it('refuses the other roles with 403 and a missing key with 401', async () => {
    for (const role of ['APPROVER', 'AUDITOR', 'VIEWER', 'POLICY_AUTHOR'] as const) {
      expect(
        (
          await t.request
            .post('/api/v1/releases/evidence')
            .set((await t.user(role)).auth)
            .send(valid)
        ).status,
      ).toBe(403);
    }
    expect((await t.request.post('/api/v1/releases/evidence').send(valid)).status).toBe(401);
  });

  it.each([
    [{ repo_root: 'nope' }, 'repo_root'],
    [{ commit_sha: 'abc' }, 'commit_sha'],
    [{ status: 'ok' }, 'status'],
    [{ kind: 'has space' }, 'kind'],
    [{ name: '' }, 'name'],
    [{ produced_at: 'yesterday' }, 'produced_at'],
    [{ produced_at: '2999-01-01T00:00:00Z' }, 'produced_at'],
    [{ digest: 'not hex' }, 'digest'],
    [{ uri: 'not a url' }, 'uri'],
    [{ uri: 'javascript:alert(document.cookie)' }, 'uri'],
    [{ uri: 'data:text/html,<script>alert(1)</script>' }, 'uri'],
    [{ uri: 'file:///etc/passwd' }, 'uri'],
    [{ extra: 1 }, undefined],
  ])('answers 422 for %p', async (patch, field) => {
    const res = await t.request
      .post('/api/v1/releases/evidence')
      .set(t.admin.auth)
      .send({ ...valid, ...patch });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(field ? ['body', field] : ['body']);
  });
});

describe('recordCheckRun (for the App)', () => {
  it('refuses bad repositories, SHAs and names with ValidationError', async () => {
    await expect(checkRun(t, { repo_root: 'x', commit_sha: sha(1), name: 'ci' })).rejects.toMatchObject({
      issues: [expect.objectContaining({ loc: ['repo_root'] })],
    });
    await expect(checkRun(t, { repo_root: 'a/b', commit_sha: 'short', name: 'ci' })).rejects.toMatchObject({
      issues: [expect.objectContaining({ loc: ['commit_sha'] })],
    });
    await expect(checkRun(t, { repo_root: 'a/b', commit_sha: sha(1), name: ' ' })).rejects.toMatchObject({
      issues: [expect.objectContaining({ loc: ['name'] })],
    });
  });

  it("never records the App's own check run as evidence", async () => {
    const commit = sha('own-check');
    await checkRun(t, { repo_root: 'acme/runs', commit_sha: commit, name: 'shipgate / release gate', conclusion: 'failure' });
    expect(await t.database.db('evidence').where({ commit_sha: commit })).toEqual([]);
  });

  it('keeps one row per GitHub check run id, updated as deliveries arrive', async () => {
    const commit = sha('runs');
    await checkRun(t, {
      repo_root: 'acme/runs',
      commit_sha: commit,
      name: 'ci',
      external_id: 42,
      status: 'queued',
      conclusion: null,
      completed_at: null,
      started_at: '2025-05-01T00:00:00Z',
    });
    await checkRun(t, {
      repo_root: 'acme/runs',
      commit_sha: commit,
      name: 'ci',
      external_id: 42,
      conclusion: 'success',
      completed_at: '2025-05-01T00:10:00Z',
    });
    const rows = await t.database.db('evidence').where({ commit_sha: commit });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'completed', conclusion: 'success' });
  });
});
