import { fixture, uploadDocument } from '../release/support/evidence-documents.js';
import { sha } from '../support/release-api.js';
import { evidenceFor as evidence, useRepoAccessStack } from './support/repo-access-stack.js';

// docs/api.md, "Repository access": the two other settings of SHIPGATE_REPO_ACCESS, with the same App and fake GitHub.
describe('SHIPGATE_REPO_ACCESS=github-required', () => {
  const stack = useRepoAccessStack('github-required');

  it('a user not linked to GitHub gets 403 telling them to link GitHub, on reads and writes of a repository', async () => {
    const operator = await stack.t.user('OPERATOR');
    const upload = await stack.t.request.post('/api/v1/releases/evidence').set(operator.auth).send(evidence('acme/api', 'q1'));
    expect(upload.status).toBe(403);
    expect(upload.body.detail).toMatch(/Link your GitHub account/);
    const read = await stack.t.request
      .get('/api/v1/releases/decision')
      .set(operator.auth)
      .query({ repo_root: 'acme/api', commit_sha: sha('q1') });
    expect(read.status).toBe(403);
    expect(read.body.detail).toMatch(/Link your GitHub account/);
    // A list shows none of the repositories' items to them.
    const listed = await stack.t.request.get('/api/v1/releases/deployments').set(operator.auth);
    expect(listed.status).toBe(200);
  });

  it("a stored item of a repository answers them its unknown id's 404, not the 403 that would reveal it", async () => {
    const bytes = fixture('jest-junit-passing.xml');
    const doc = await uploadDocument(stack.t, { repo: 'acme/api', commit: sha('q9'), name: 'tests', bytes, format: 'junit' });
    const viewer = await stack.t.user('VIEWER');
    for (const id of [doc.id, '00000000-0000-4000-8000-000000000000']) {
      const res = await stack.t.request.get(`/api/v1/releases/evidence/${id}/document`).set(viewer.auth);
      expect([res.status, res.body]).toEqual([404, { detail: 'Evidence document not found.' }]);
    }
  });

  it('a linked user with write uploads; ADMIN needs no link', async () => {
    const operator = await stack.linked('OPERATOR', 'required-writer');
    stack.gh.app.grant('acme/api', 'required-writer', 'write');
    expect((await stack.t.request.post('/api/v1/releases/evidence').set(operator.auth).send(evidence('acme/api', 'q2'))).status).toBe(201);
    expect((await stack.t.request.post('/api/v1/releases/evidence').set(stack.t.admin.auth).send(evidence('acme/api', 'q3'))).status).toBe(
      201,
    );
  });
});

describe('SHIPGATE_REPO_ACCESS=roles', () => {
  const stack = useRepoAccessStack('roles');

  it('a linked OPERATOR with only read on GitHub uploads, as before: GitHub is not asked', async () => {
    const operator = await stack.linked('OPERATOR', 'roles-reader');
    stack.gh.app.grant('acme/api', 'roles-reader', 'read');
    const res = await stack.t.request.post('/api/v1/releases/evidence').set(operator.auth).send(evidence('acme/secret', 'o1'));
    expect(res.status).toBe(201);
    expect((await stack.t.request.post('/api/v1/releases/evidence').set(operator.auth).send(evidence('acme/api', 'o1'))).status).toBe(201);
    expect(stack.lookups('acme/api', 'roles-reader') + stack.lookups('acme/secret', 'roles-reader')).toBe(0);
  });
});

describe('SHIPGATE_REPO_ACCESS unset, with a GitHub App configured', () => {
  const stack = useRepoAccessStack(undefined);

  it('means github: a linked OPERATOR with read cannot upload', async () => {
    const operator = await stack.linked('OPERATOR', 'default-reader');
    stack.gh.app.grant('acme/api', 'default-reader', 'read');
    const res = await stack.t.request.post('/api/v1/releases/evidence').set(operator.auth).send(evidence('acme/api', 'd1'));
    expect(res.status).toBe(403);
  });
});
