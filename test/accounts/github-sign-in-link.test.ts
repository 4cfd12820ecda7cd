import { startFakeGitHub, type FakeGitHub } from '../fakes/fake-github-server.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { linkWithGitHub, signInEnv, signInWithGitHub, throughGitHub, uniqueLogin as login } from './support/github-sign-in-flow.js';

// docs/github-app.md, "Sign in with GitHub": linking an existing account, closed registration, password accounts.
let gh: FakeGitHub;
let t: TestApp;

beforeAll(async () => {
  gh = await startFakeGitHub();
  t = await createTestApp(signInEnv(gh, { SHIPGATE_REGISTRATION: 'closed' }));
});
afterAll(async () => {
  await t.close();
  await gh.close();
});

/** An account an ADMIN created (registration is closed), with its password. */
async function created(role: string) {
  const email = `${login(role.toLowerCase())}@example.com`;
  const res = await t.request
    .post('/api/v1/auth/register')
    .set(t.admin.auth)
    .send({ email, name: email, password: 'correct horse battery', role });
  expect(res.status).toBe(201);
  return { id: res.body.id as string, auth: { Authorization: `Bearer ${res.body.api_key}` } };
}

/** Links `as`'s account to GitHub account `github` through POST /auth/github/link, GitHub's consent and the finish with `as`'s key. */
async function link(as: { auth: { Authorization: string } }, github: string) {
  const flow = await linkWithGitHub(t, gh, as, github);
  expect(flow.started.body.authorize_url).not.toMatch(/sg_/);
  return flow;
}

const me = (as: { auth: { Authorization: string } }) => t.request.get('/api/v1/auth/me').set(as.auth).expect(200);

describe('linking GitHub to an existing account', () => {
  it('links, shows the login on /auth/me, then signs in with GitHub as that account; unlinks', async () => {
    const operator = await created('OPERATOR');
    const name = login('linus');
    const account = gh.oauth.user(name);
    const linked = await link(operator, name);
    expect(linked.studio?.hash).toMatch(/^#\/account\?github_link=[A-Za-z0-9_-]{43}$/);
    expect([linked.finish?.status, linked.finish?.body]).toEqual([200, { result: 'linked', github_login: name, code: null }]);
    expect((await t.request.get('/api/v1/auth/me').set(operator.auth).expect(200)).body.github).toEqual({ id: account.id, login: name });

    // Registration is closed, but this GitHub account now belongs to an account an ADMIN created.
    const signedIn = await signInWithGitHub(t, gh, name);
    expect(signedIn.exchange?.body).toMatchObject({ id: operator.id, role: 'OPERATOR' });

    // Only an ADMIN removes a link while GitHub decides repository access (docs/api.md, "Repository access").
    const own = await t.request.delete('/api/v1/auth/github').set(operator.auth).expect(403);
    expect(own.body.detail).toMatch(/Only an ADMIN can remove a GitHub link/);
    await t.request.delete(`/api/v1/users/${operator.id}/github`).set(t.admin.auth).expect(204);
    expect((await t.request.get('/api/v1/auth/me').set(operator.auth).expect(200)).body.github).toBeNull();
    await t.request.delete(`/api/v1/users/${operator.id}/github`).set(t.admin.auth).expect(404);
    // Unlinked: the GitHub account is a stranger again, and registration is closed.
    const after = await signInWithGitHub(t, gh, name);
    expect(after.studio?.hash).toBe('#/sign-in?github_error=closed');
  });

  it('refuses to link a GitHub account another user holds', async () => {
    const [first, second] = [await created('VIEWER'), await created('VIEWER')];
    const name = login('shared');
    gh.oauth.user(name);
    expect((await link(first, name)).finish?.body.result).toBe('linked');
    const refused = await link(second, name);
    expect(refused.studio?.hash).toBe('#/account?github_error=linked_elsewhere');
    expect((await t.request.get('/api/v1/auth/me').set(second.auth)).body.github).toBeNull();
  });

  it('sends a cancelled link back to the account page', async () => {
    const viewer = await created('VIEWER');
    gh.oauth.deny = true;
    try {
      expect((await link(viewer, login('shy'))).studio?.hash).toBe('#/account?github_error=denied');
    } finally {
      gh.oauth.deny = false;
    }
  });

  it('needs a key to start a link, and to finish one', async () => {
    await t.request.post('/api/v1/auth/github/link').expect(401);
    await t.request
      .post('/api/v1/auth/github/link/finish')
      .send({ code: 'x'.repeat(43) })
      .expect(401);
    await t.request.delete('/api/v1/auth/github').expect(401);
  });
});

describe('a link is bound to the browser and the account that started it', () => {
  it('a link started by user X cannot finish for user Y', async () => {
    const [x, y] = [await created('OPERATOR'), await created('OPERATOR')];
    const name = login('victim');
    gh.oauth.user(name);
    gh.oauth.signedInAs = name;
    // X's browser went through GitHub; the pending link's code reaches Y, who sends it with Y's key.
    const started = await t.request.post('/api/v1/auth/github/link').set(x.auth).expect(200);
    const flow = await throughGitHub(t, started);
    const code = flow.result.get('github_link')!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stolen = await t.request.post('/api/v1/auth/github/link/finish').set(y.auth).send({ code }).expect(403);
    expect(stolen.body.detail).toMatch(/started by another shipgate account/);
    expect((await me(y)).body.github).toBeNull();
    expect((await me(x)).body.github).toBeNull();
    // The code is spent: not even X can use it now.
    await t.request.post('/api/v1/auth/github/link/finish').set(x.auth).send({ code }).expect(422);
    expect((await me(x)).body.github).toBeNull();
    expect(await t.database.db('github_identities').where({ user_id: y.id })).toEqual([]);
  });

  it("an attacker's link URL opened in a victim's browser links nothing, and GitHub's code is never exchanged", async () => {
    const attacker = await created('VIEWER');
    const name = login('target');
    gh.oauth.user(name);
    gh.oauth.signedInAs = name;
    const exchanged = gh.oauth.issuedTokens.length;
    const started = await t.request.post('/api/v1/auth/github/link').set(attacker.auth).expect(200);
    // The victim's browser never held the attacker's cookie.
    const victim = await throughGitHub(t, started.body.authorize_url as string);
    expect(victim.studio?.hash).toBe('#/account?github_error=browser');
    expect(gh.oauth.issuedTokens.length).toBe(exchanged);
    expect((await me(attacker)).body.github).toBeNull();
  });

  it('a pending link never becomes a key, and a sign-in code never finishes a link', async () => {
    const viewer = await created('VIEWER');
    const name = login('mixed');
    gh.oauth.user(name);
    gh.oauth.signedInAs = name;
    const flow = await throughGitHub(t, await t.request.post('/api/v1/auth/github/link').set(viewer.auth).expect(200));
    const code = flow.result.get('github_link')!;
    await t.request.post('/api/v1/auth/github/exchange').send({ code }).expect(422);
    // The exchange did not spend it: the link still finishes, with the starter's key.
    await t.request.post('/api/v1/auth/github/link/finish').set(viewer.auth).send({ code }).expect(200);
    const signedIn = await signInWithGitHub(t, gh, name);
    const signInCode = signedIn.result.get('github_code')!;
    expect(signInCode).toBeTruthy();
    await t.request.post('/api/v1/auth/github/link/finish').set(viewer.auth).send({ code: signInCode }).expect(422);
  });
});

describe('accounts created by a GitHub sign-in', () => {
  it('have no password: /auth/login refuses them clearly, and they cannot unlink GitHub', async () => {
    const open = await createTestApp(signInEnv(gh, { SHIPGATE_DEFAULT_ROLE: 'VIEWER' }));
    try {
      const name = login('nopass');
      gh.oauth.user(name);
      const flow = await signInWithGitHub(open, gh, name);
      const created = flow.exchange!.body as { email: string; api_key: string; role: string };
      expect(created.role).toBe('VIEWER');
      expect(created.email).toBe(`${gh.oauth.users.get(name)!.id}+${name}@users.noreply.github.com`);
      const refused = await open.request.post('/api/v1/auth/login').send({ email: created.email, password: 'anything at all' }).expect(401);
      expect(refused.body.detail).toMatch(/no password: it signs in with GitHub/);
      await open.request.delete('/api/v1/auth/github').set('Authorization', `Bearer ${created.api_key}`).expect(403);
      const id = (await open.request.get('/api/v1/auth/me').set('Authorization', `Bearer ${created.api_key}`).expect(200)).body.id;
      const unlink = await open.request.delete(`/api/v1/users/${id}/github`).set(open.admin.auth).expect(409);
      expect(unlink.body.detail).toMatch(/lock it out/);
      // Password accounts keep working.
      await open.request.post('/api/v1/auth/login').send({ email: open.admin.email, password: 'correct horse battery' }).expect(200);
    } finally {
      await open.close();
    }
  });

  it('the very first user of an install is ADMIN, even with registration closed', async () => {
    const fresh = await createTestApp(signInEnv(gh, { SHIPGATE_REGISTRATION: 'closed', SHIPGATE_DEFAULT_ROLE: 'VIEWER' }), { empty: true });
    try {
      const name = login('founder');
      gh.oauth.user(name);
      const flow = await signInWithGitHub(fresh, gh, name);
      expect(flow.exchange?.body.role).toBe('ADMIN');
      const stranger = login('stranger');
      gh.oauth.user(stranger);
      expect((await signInWithGitHub(fresh, gh, stranger)).studio?.hash).toBe('#/sign-in?github_error=closed');
    } finally {
      await fresh.close();
    }
  });
});

describe('without an OAuth client', () => {
  it('says it is disabled; start answers 404 {detail}, or sends a browser back to the sign-in page', async () => {
    const plain = await createTestApp();
    try {
      expect((await plain.request.get('/api/v1/auth/github').expect(200)).body.enabled).toBe(false);
      const api = await plain.request.get('/api/v1/auth/github/start').expect(404);
      expect(api.body.detail).toMatch(/GITHUB_CLIENT_ID/);
      const browser = await plain.request.get('/api/v1/auth/github/start').set('Accept', 'text/html').expect(303);
      expect(browser.headers.location).toMatch(/#\/sign-in\?github_error=not_configured$/);
      await plain.request.post('/api/v1/auth/github/link').set(plain.admin.auth).expect(404);
    } finally {
      await plain.close();
    }
  });
});
