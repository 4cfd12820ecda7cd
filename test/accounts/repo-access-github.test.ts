import { decide, insertExecution, putGate, sha } from '../support/release-api.js';
import { evidenceFor as evidence, useRepoAccessStack } from './support/repo-access-stack.js';

// SHIPGATE_REPO_ACCESS=github, the App installed on acme/api and acme/secret (docs/api.md, "Repository access").
const stack = useRepoAccessStack('github');

describe('repository access from GitHub permissions', () => {
  it('an OPERATOR with read gets 403 naming write on upload, and 404 on a repository it cannot read', async () => {
    const operator = await stack.linked('OPERATOR', 'ops-reader');
    stack.gh.app.grant('acme/api', 'ops-reader', 'read');
    const denied = await stack.t.request.post('/api/v1/releases/evidence').set(operator.auth).send(evidence('acme/api', 'r1'));
    expect(denied.status).toBe(403);
    expect(denied.body.detail).toMatch(/write permission on acme\/api/);
    const hidden = await stack.t.request.post('/api/v1/releases/evidence').set(operator.auth).send(evidence('acme/secret', 'r1'));
    expect(hidden.status).toBe(404);
    expect(hidden.body.detail).toBe('Repository not found.');
    const decision = await stack.t.request
      .get('/api/v1/releases/decision')
      .set(operator.auth)
      .query({ repo_root: 'acme/secret', commit_sha: sha('r1') });
    expect(decision.status).toBe(404);
    // Readable: the decision of acme/api answers.
    const readable = await stack.t.request
      .get('/api/v1/releases/decision')
      .set(operator.auth)
      .query({ repo_root: 'acme/api', commit_sha: sha('r1') });
    expect(readable.status).toBe(200);
  });

  it('an OPERATOR with write uploads', async () => {
    const operator = await stack.linked('OPERATOR', 'ops-writer');
    stack.gh.app.grant('acme/api', 'ops-writer', 'write');
    const res = await stack.t.request.post('/api/v1/releases/evidence').set(operator.auth).send(evidence('acme/api', 'w1'));
    expect(res.status).toBe(201);
  });

  it('an APPROVER with write cannot reject or promote a snapshot; one with maintain (permission write, role_name maintain) can', async () => {
    const { snapshot_id } = await decide(stack.t, 'acme/api', sha('p1'));
    const writer = await stack.linked('APPROVER', 'appr-writer');
    stack.gh.app.grant('acme/api', 'appr-writer', 'write');
    const refused = await stack.t.request
      .post('/api/v1/releases/promote')
      .set(writer.auth)
      .send({ snapshot_id, target_status: 'rejected' });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/maintain or admin permission on acme\/api/);
    const maintainer = await stack.linked('APPROVER', 'appr-maintainer');
    stack.gh.app.grant('acme/api', 'appr-maintainer', { role_name: 'maintain', permission: 'write' });
    const done = await stack.t.request
      .post('/api/v1/releases/promote')
      .set(maintainer.auth)
      .send({ snapshot_id, target_status: 'rejected' });
    expect(done.status).toBe(201);
  });

  it('setting a gate needs maintain; reading it needs read', async () => {
    const author = await stack.linked('POLICY_AUTHOR', 'gate-writer');
    stack.gh.app.grant('acme/api', 'gate-writer', 'write');
    const put = await stack.t.request
      .put('/api/v1/releases/gates/acme/api')
      .set(author.auth)
      .send({ required_checks: ['build'] });
    expect(put.status).toBe(403);
    expect((await stack.t.request.get('/api/v1/releases/gates/acme/api').set(author.auth)).status).toBe(200);
    expect((await stack.t.request.get('/api/v1/releases/gates/acme/secret/versions').set(author.auth)).status).toBe(404);
  });

  it('lists show only the repositories the user can read', async () => {
    for (const repo of ['acme/api', 'acme/secret']) {
      const { snapshot_id } = await decide(stack.t, repo, sha(`list-${repo}`));
      const res = await stack.t.request
        .post('/api/v1/releases/promote')
        .set(stack.t.admin.auth)
        .send({ snapshot_id, target_status: 'rejected' });
      expect(res.status).toBe(201);
    }
    const viewer = await stack.linked('VIEWER', 'list-reader');
    stack.gh.app.grant('acme/api', 'list-reader', 'triage');
    const listed = await stack.t.request.get('/api/v1/releases/promotions').set(viewer.auth).query({ limit: 100 });
    expect(listed.status).toBe(200);
    const repos = new Set(listed.body.promotions.map((p: { repo_root: string }) => p.repo_root));
    expect(repos).toEqual(new Set(['acme/api']));
    const all = await stack.t.request.get('/api/v1/releases/promotions').set(stack.t.admin.auth).query({ limit: 100 });
    expect(new Set(all.body.promotions.map((p: { repo_root: string }) => p.repo_root))).toEqual(new Set(['acme/api', 'acme/secret']));
    const filtered = await stack.t.request.get('/api/v1/releases/promotions').set(viewer.auth).query({ repo_root: 'acme/secret' });
    expect(filtered.status).toBe(404);
  });

  it('100 concurrent decision reads by one user cost one permission lookup', async () => {
    const viewer = await stack.linked('VIEWER', 'busy-reader');
    stack.gh.app.grant('acme/api', 'busy-reader', 'read');
    const reads = await Promise.all(
      Array.from({ length: 100 }, () =>
        stack.t.request
          .get('/api/v1/releases/decision')
          .set(viewer.auth)
          .query({ repo_root: 'acme/api', commit_sha: sha('busy') }),
      ),
    );
    expect(reads.map((r) => r.status)).toEqual(Array(100).fill(200));
    expect(stack.lookups('acme/api', 'busy-reader')).toBe(1);
  });

  it('ADMIN bypasses the GitHub permission', async () => {
    const admin = await stack.linked('ADMIN', 'the-admin');
    const res = await stack.t.request.post('/api/v1/releases/evidence').set(admin.auth).send(evidence('acme/secret', 'a1'));
    expect(res.status).toBe(201);
    expect(stack.lookups('acme/secret', 'the-admin')).toBe(0);
  });

  it('a user never linked to GitHub reads public repositories only; a service account keeps the role-only rule', async () => {
    const operator = await stack.t.user('OPERATOR');
    expect((await stack.t.request.post('/api/v1/releases/evidence').set(operator.auth).send(evidence('acme/secret', 'u1'))).status).toBe(
      404,
    );
    const ci = await stack.service('OPERATOR');
    const res = await stack.t.request.post('/api/v1/releases/evidence').set(ci.auth).send(evidence('acme/secret', 'u1'));
    expect(res.status).toBe(201);
  });

  it('a repository where the App is not installed is not readable (fail closed)', async () => {
    const viewer = await stack.linked('VIEWER', 'elsewhere-reader');
    stack.gh.app.grant('acme/elsewhere', 'elsewhere-reader', 'admin');
    const res = await stack.t.request
      .get('/api/v1/releases/decision')
      .set(viewer.auth)
      .query({ repo_root: 'acme/elsewhere', commit_sha: sha('e1') });
    expect(res.status).toBe(404);
    expect(stack.lookups('acme/elsewhere', 'elsewhere-reader')).toBe(0);
  });

  it('GitHub failing answers 503 with a detail, never an allow, and the next request asks again', async () => {
    const operator = await stack.linked('OPERATOR', 'flaky-writer');
    stack.gh.app.grant('acme/api', 'flaky-writer', 'write');
    stack.gh.app.failNext('GET', /\/collaborators\/flaky-writer\/permission$/, { status: 502, body: { message: 'Server Error' } });
    const failed = await stack.t.request.post('/api/v1/releases/evidence').set(operator.auth).send(evidence('acme/api', 'f1'));
    expect(failed.status).toBe(503);
    expect(failed.body.detail).toMatch(/GitHub did not answer/);
    const retried = await stack.t.request.post('/api/v1/releases/evidence').set(operator.auth).send(evidence('acme/api', 'f1'));
    expect(retried.status).toBe(201);
  });

  it('executions bound to a repository the user cannot read are neither listed nor shown', async () => {
    const operator = await stack.linked('OPERATOR', 'run-reader');
    stack.gh.app.grant('acme/api', 'run-reader', 'read');
    const db = stack.t.database.db;
    const readable = await insertExecution(db, { owner_id: operator.id, repo_root: 'acme/api', commit_sha: sha('x1') });
    const hidden = await insertExecution(db, { owner_id: operator.id, repo_root: 'acme/secret', commit_sha: sha('x1') });
    const listed = await stack.t.request.get('/api/v1/executions').set(operator.auth).query({ limit: 100 });
    expect(listed.status).toBe(200);
    expect(listed.body.map((e: { id: string }) => e.id).sort()).toEqual([readable]);
    expect((await stack.t.request.get(`/api/v1/executions/${hidden}`).set(operator.auth)).status).toBe(404);
    expect((await stack.t.request.get(`/api/v1/executions/${readable}`).set(operator.auth)).status).toBe(200);
  });

  it('the health of every repository leaves out those the user cannot read', async () => {
    await putGate(stack.t, 'acme/secret', { required_checks: ['secret-build'] });
    await decide(stack.t, 'acme/secret', sha('h1'));
    const viewer = await stack.linked('VIEWER', 'health-reader');
    stack.gh.app.grant('acme/api', 'health-reader', 'read');
    const repos = async (auth: { Authorization: string }) => {
      const res = await stack.t.request.get('/api/v1/releases/health').set(auth);
      expect(res.status).toBe(200);
      return res.body.runtime_evidence.items.map((i: { repo_root: string | null }) => i.repo_root);
    };
    expect(await repos(stack.t.admin.auth)).toContain('acme/secret');
    expect(await repos(viewer.auth)).not.toContain('acme/secret');
  });
});
