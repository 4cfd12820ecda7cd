import { randomUUID } from 'node:crypto';
import { warnAccountsLimitedToPublic } from '../../server/warn-accounts-limited-to-public.js';
import { sha } from '../support/release-api.js';
import { evidenceFor as evidence, useRepoAccessStack } from './support/repo-access-stack.js';

// SHIPGATE_REPO_ACCESS unset: `github`, the default with an App installed on acme/api and acme/secret
// (docs/api.md, "Repository access"). Nobody widens their own repository access.
const stack = useRepoAccessStack(undefined);

/** Registers as anyone reaching the server can (open registration): a VIEWER with its own key. */
async function selfRegistered() {
  const email = `stranger-${randomUUID().slice(0, 8)}@example.com`;
  const res = await stack.t.request.post('/api/v1/auth/register').send({ email, name: 'stranger', password: 'correct horse battery' });
  expect(res.status).toBe(201);
  return { id: res.body.id as string, auth: { Authorization: `Bearer ${res.body.api_key}` } };
}

const decisionOf = (auth: { Authorization: string }, repo: string, label: string) =>
  stack.t.request
    .get('/api/v1/releases/decision')
    .set(auth)
    .query({ repo_root: repo, commit_sha: sha(label) });

const repositoryAccessOf = async (userId: string) => {
  const users = await stack.t.request.get('/api/v1/users').query({ limit: 100 }).set(stack.t.admin.auth).expect(200);
  return (users.body as { id: string; repository_access: string; service_account: boolean }[]).find((u) => u.id === userId);
};

describe('unlinking never widens access', () => {
  it('a linked OPERATOR without GitHub access to acme/api cannot unlink, and still gets 404 after an ADMIN unlinks them', async () => {
    const operator = await stack.linked('OPERATOR', 'ex-contractor');
    await stack.t.request.post('/api/v1/releases/evidence').set(stack.t.admin.auth).send(evidence('acme/api', 'x1')).expect(201);
    expect((await decisionOf(operator.auth, 'acme/api', 'x1')).status).toBe(404);

    const own = await stack.t.request.delete('/api/v1/auth/github').set(operator.auth);
    expect(own.status).toBe(403);
    expect(own.body.detail).toMatch(/Only an ADMIN can remove a GitHub link/);

    await stack.t.request.delete(`/api/v1/users/${operator.id}/github`).set(stack.t.admin.auth).expect(204);
    expect((await stack.t.request.get('/api/v1/auth/me').set(operator.auth).expect(200)).body.github).toBeNull();
    expect((await decisionOf(operator.auth, 'acme/api', 'x1')).status).toBe(404);
    const upload = await stack.t.request.post('/api/v1/releases/evidence').set(operator.auth).send(evidence('acme/api', 'x2'));
    expect(upload.status).toBe(404);
    expect((await stack.t.request.get('/api/v1/releases/gates/acme/api').set(operator.auth)).status).toBe(404);
    expect((await repositoryAccessOf(operator.id))?.repository_access).toBe('github');
  });

  it('a removed link is still looked up by its numeric GitHub id, whatever login the account has now', async () => {
    const operator = await stack.linked('OPERATOR', 'old-name');
    await stack.t.request.delete(`/api/v1/users/${operator.id}/github`).set(stack.t.admin.auth).expect(204);
    // The GitHub account renamed itself; someone else took its old login and may write to acme/api.
    const account = [...stack.gh.oauth.users.values()].find((u) => u.login === 'old-name')!;
    stack.gh.oauth.user('new-name', { id: account.id });
    stack.gh.app.grant('acme/api', 'old-name', 'write');
    const res = await stack.t.request.post('/api/v1/releases/evidence').set(operator.auth).send(evidence('acme/api', 'n1'));
    expect(res.status).toBe(404);
    stack.gh.app.grant('acme/api', 'new-name', 'write');
    // Answers are kept 5 minutes per account and repository: another repository is asked at once.
    stack.gh.app.installations.set('acme/renamed', 503);
    stack.gh.app.grant('acme/renamed', 'new-name', 'write');
    const renamed = await stack.t.request.post('/api/v1/releases/evidence').set(operator.auth).send(evidence('acme/renamed', 'n1'));
    expect(renamed.status).toBe(201);
  });

  it('a user may not remove another user\u2019s link, nor make themselves a service account', async () => {
    const operator = await stack.linked('OPERATOR', 'pushy');
    const other = await stack.linked('OPERATOR', 'bystander');
    expect((await stack.t.request.delete(`/api/v1/users/${other.id}/github`).set(operator.auth)).status).toBe(403);
    const patch = await stack.t.request.patch(`/api/v1/users/${operator.id}`).set(operator.auth).send({ service_account: true });
    expect(patch.status).toBe(403);
    expect((await repositoryAccessOf(operator.id))?.service_account).toBe(false);
  });
});

describe('accounts without a GitHub link', () => {
  it('a self-registered account reads no private repository, only public ones, and writes to none', async () => {
    await stack.t.request.post('/api/v1/releases/evidence').set(stack.t.admin.auth).send(evidence('acme/secret', 's1')).expect(201);
    stack.gh.app.privateRepos.add('acme/secret');
    stack.gh.repos.commit('acme/secret', { files: { 'README.md': 'secret\n' } });
    stack.gh.app.installations.set('acme/open', 504);
    stack.gh.repos.commit('acme/open', { files: { 'README.md': 'open\n' } });
    await stack.t.request.post('/api/v1/releases/evidence').set(stack.t.admin.auth).send(evidence('acme/open', 's1')).expect(201);
    const stranger = await selfRegistered();

    expect((await decisionOf(stranger.auth, 'acme/secret', 's1')).status).toBe(404);
    expect((await decisionOf(stranger.auth, 'acme/api', 's1')).status).toBe(404); // unknown to GitHub as a repository
    const evidenceList = await stack.t.request
      .get('/api/v1/releases/evidence')
      .set(stranger.auth)
      .query({ repo_root: 'acme/secret', commit_sha: sha('s1') });
    expect(evidenceList.status).toBe(404);
    expect((await stack.t.request.get('/api/v1/releases/gates/acme/secret').set(stranger.auth)).status).toBe(404);
    const listed = await stack.t.request.get('/api/v1/releases/promotions').set(stranger.auth).expect(200);
    expect(JSON.stringify(listed.body)).not.toContain('acme/secret');

    expect((await decisionOf(stranger.auth, 'acme/open', 's1')).status).toBe(200);
    await stack.t.request.patch(`/api/v1/users/${stranger.id}`).set(stack.t.admin.auth).send({ role: 'OPERATOR' }).expect(200);
    const write = await stack.t.request.post('/api/v1/releases/evidence').set(stranger.auth).send(evidence('acme/open', 's2'));
    expect(write.status).toBe(403);
    expect(write.body.detail).toMatch(/no GitHub link.*service account/);
    expect((await repositoryAccessOf(stranger.id))?.repository_access).toBe('public_only');
  });

  it('a service account made by an ADMIN uploads evidence with its key, by role alone', async () => {
    const ci = await stack.t.user('OPERATOR');
    const before = await stack.t.request.post('/api/v1/releases/evidence').set(ci.auth).send(evidence('acme/secret', 'c1'));
    expect(before.status).toBe(404);
    const made = await stack.t.request.patch(`/api/v1/users/${ci.id}`).set(stack.t.admin.auth).send({ service_account: true }).expect(200);
    expect(made.body).toMatchObject({ service_account: true, repository_access: 'role_only' });
    const key = await stack.t.request.post('/api/v1/auth/rotate').set(ci.auth).expect(200);
    const res = await stack.t.request
      .post('/api/v1/releases/evidence')
      .set({ Authorization: `Bearer ${key.body.api_key}` })
      .send(evidence('acme/secret', 'c1'));
    expect(res.status).toBe(201);
  });

  it('at start, one warning names the accounts that read public repositories only, with the fix', async () => {
    const stranger = await selfRegistered();
    const ci = await stack.service('OPERATOR');
    stack.t.logs.lines.length = 0;
    await warnAccountsLimitedToPublic(stack.t.deps);
    const [warning, ...more] = stack.t.logs.events('repo_access.public_only_accounts');
    expect(more).toEqual([]);
    const named = (warning.accounts as { id: string }[]).map((a) => a.id);
    expect(named).toContain(stranger.id);
    expect(named).not.toContain(ci.id);
    expect(named).not.toContain(stack.t.admin.id);
    expect(warning.fix).toMatch(/service_account/);
  });
});
