import { gitHubError } from '../fakes/fake-github-route.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/fake-github-server.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createHash } from 'node:crypto';
import { sentCookie, signInEnv, signInWithGitHub, throughGitHub, uniqueLogin as login } from './support/github-sign-in-flow.js';

// docs/github-app.md, "Sign in with GitHub": the web flow against the fake GitHub, as the studio drives it.
let gh: FakeGitHub;
let t: TestApp;

beforeAll(async () => {
  gh = await startFakeGitHub();
  // Members of acme may sign in; acme has the App installed (with members: read), globex has no installation.
  gh.oauth.orgInstallations.set('acme', 91);
  t = await createTestApp(signInEnv(gh, { SHIPGATE_DEFAULT_ROLE: 'OPERATOR', SHIPGATE_GITHUB_ALLOWED_ORGS: 'Acme' }));
});
afterAll(async () => {
  await t.close();
  await gh.close();
});

const me = (key: string) => t.request.get('/api/v1/auth/me').set('Authorization', `Bearer ${key}`);

describe('Sign in with GitHub', () => {
  it('says it is enabled, and for which organisations', async () => {
    const res = await t.request.get('/api/v1/auth/github').expect(200);
    expect(res.body).toEqual({ enabled: true, organizations: ['acme'] });
  });

  it('starts with a single-use state and a PKCE S256 challenge, never the client secret', async () => {
    const start = await t.request.get('/api/v1/auth/github/start').expect(302);
    const url = new URL(start.headers.location);
    expect(`${url.origin}${url.pathname}`).toBe(`http://${gh.host}/login/oauth/authorize`);
    expect(url.searchParams.get('client_id')).toBe(gh.oauth.clientId);
    expect(url.searchParams.get('redirect_uri')).toBe('https://shipgate.example/api/v1/auth/github/callback');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(start.headers.location).not.toContain(gh.oauth.clientSecret);
    // Only the state's SHA-256 is stored.
    const rows = await t.database.db('github_sign_in_states').select('state_sha256');
    expect(rows.map((r) => r.state_sha256)).not.toContain(url.searchParams.get('state'));
  });

  it('creates a user with the default role at the first sign-in, linked by GitHub user id', async () => {
    const name = login('ada');
    gh.oauth.user(name, { name: 'Ada Lovelace', orgs: ['acme'] });
    const flow = await signInWithGitHub(t, gh, name);
    expect(flow.studio?.href).toMatch(/^https:\/\/shipgate\.example\/studio#\/sign-in\?github_code=/);
    expect(flow.exchange?.status).toBe(200);
    const key = flow.exchange!.body.api_key as string;
    expect(flow.exchange!.body).toMatchObject({ name: 'Ada Lovelace', role: 'OPERATOR' });
    const res = await me(key).expect(200);
    expect(res.body).toMatchObject({ role: 'OPERATOR', active: true, github: { id: gh.oauth.users.get(name)!.id, login: name } });
    // The user's GitHub token was used for GET /user, then revoked, and is not in the database.
    const token = gh.oauth.issuedTokens.at(-1)!;
    const readAt = gh.requests.findIndex((r) => r.path === '/user' && r.headers.authorization === `Bearer ${token}`);
    // This token's revocation: other tests in this file revoke theirs on the same fake.
    const revokedAt = gh.requests.findIndex(
      (r) =>
        r.method === 'DELETE' &&
        r.path === `/applications/${gh.oauth.clientId}/token` &&
        (r.body as { access_token?: string } | null)?.access_token === token,
    );
    expect(readAt).toBeGreaterThanOrEqual(0);
    expect(revokedAt).toBeGreaterThan(readAt);
    expect(gh.oauth.revokedTokens).toContain(token);
    const tables = await t.database.db('information_schema.tables').where({ table_schema: 'public' }).pluck('table_name');
    for (const table of tables) {
      const found = await t.database.db.raw(`SELECT 1 FROM "${table}" AS x WHERE x::text LIKE ? LIMIT 1`, [`%${token}%`]);
      expect(`${table}: ${found.rows.length}`).toBe(`${table}: 0`);
    }
  });

  it('signs a second time in as the same user, with the login GitHub now reports', async () => {
    const first = login('grace');
    const account = gh.oauth.user(first, { orgs: ['acme'] });
    const one = await signInWithGitHub(t, gh, first);
    const userId = one.exchange!.body.id as string;
    // Renamed on GitHub: same numeric id, new login.
    const renamed = login('grace-h');
    gh.oauth.user(renamed, { id: account.id, orgs: ['acme'] });
    const two = await signInWithGitHub(t, gh, renamed);
    expect(two.exchange!.body.id).toBe(userId);
    const res = await me(two.exchange!.body.api_key).expect(200);
    expect(res.body.github).toEqual({ id: account.id, login: renamed });
    // Both keys work: a sign-in issues a new key and leaves the others alone.
    await me(one.exchange!.body.api_key).expect(200);
    const links = await t.database.db('github_identities').where({ github_user_id: String(account.id) });
    expect(links.map((l) => l.user_id)).toEqual([userId]);
  });

  it('refuses a member of an organisation that is not allowed, and says why', async () => {
    const outsider = login('mallory');
    gh.oauth.orgInstallations.set('globex', 92);
    gh.oauth.user(outsider, { orgs: ['globex'] });
    const browser = await signInWithGitHub(t, gh, outsider);
    expect(browser.studio?.hash).toBe('#/sign-in?github_error=org');
    expect(browser.code).toBeNull();
    // An API caller gets {detail}.
    gh.oauth.signedInAs = outsider;
    const start = await t.request.get('/api/v1/auth/github/start').expect(302);
    const api = await throughGitHub(t, start, { Accept: 'application/json' });
    expect(api.callback.status).toBe(403);
    expect(api.callback.body.detail).toMatch(new RegExp(`${outsider} is not a member of acme`));
    expect(
      await t.database.db('github_identities').join('users', 'users.id', 'github_identities.user_id').where({ login: outsider }),
    ).toEqual([]);
    // Membership was asked with acme's installation token.
    const asked = gh.requests.find((r) => r.path === `/orgs/acme/members/${outsider}`);
    expect(asked?.headers.authorization).toBe('token ghs_installation_91');
    expect(asked?.status).toBe(404);
  });

  it('binds the state to the browser: a __Host- cookie (HttpOnly, Secure, SameSite=Lax) whose nonce is stored as its SHA-256', async () => {
    const start = await t.request.get('/api/v1/auth/github/start').expect(302);
    const [setCookie] = ([] as string[]).concat(start.headers['set-cookie']);
    expect(setCookie).toMatch(/^__Host-shipgate_github_sign_in=[A-Za-z0-9_-]{43}; Max-Age=600; Path=\/; HttpOnly; SameSite=Lax; Secure$/);
    const nonce = sentCookie(start).split('=')[1];
    const state = new URL(start.headers.location).searchParams.get('state')!;
    const [row] = await t.database.db('github_sign_in_states').where({ state_sha256: createHash('sha256').update(state).digest('hex') });
    expect(row.browser_nonce_sha256).toBe(createHash('sha256').update(nonce).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(nonce);
    // A client asking for JSON gets the same cookie.
    const json = await t.request.get('/api/v1/auth/github/start').set('Accept', 'application/json').expect(200);
    expect(sentCookie(json)).toMatch(/^__Host-shipgate_github_sign_in=/);
  });

  it("refuses a callback without the browser's cookie, or with another browser's, before asking GitHub; the cookie is cleared", async () => {
    const name = login('csrf');
    gh.oauth.user(name, { orgs: ['acme'] });
    gh.oauth.signedInAs = name;
    const exchanged = gh.oauth.issuedTokens.length;
    // The attacker's own start, its authorization URL sent to a victim whose browser never held the cookie.
    const attackers = await t.request.get('/api/v1/auth/github/start').expect(302);
    const victim = await throughGitHub(t, attackers.headers.location);
    expect(victim.studio?.hash).toBe('#/sign-in?github_error=browser');
    expect(([] as string[]).concat(victim.callback.headers['set-cookie'])).toEqual([
      '__Host-shipgate_github_sign_in=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax; Secure',
    ]);
    // A browser holding the cookie of another sign-in of its own fares no better.
    const mine = await t.request.get('/api/v1/auth/github/start').expect(302);
    const theirs = await t.request.get('/api/v1/auth/github/start').set('Accept', 'application/json').expect(200);
    const consent = await fetch(theirs.body.authorize_url, { redirect: 'manual' });
    const back = new URL(consent.headers.get('location')!);
    const crossed = await t.request
      .get(`${back.pathname}${back.search}`)
      .set({ Accept: 'application/json', Cookie: sentCookie(mine) })
      .expect(403);
    expect(crossed.body.detail).toMatch(/not started in this browser/);
    // GitHub's code was never exchanged, and nobody signed in.
    expect(gh.oauth.issuedTokens.length).toBe(exchanged);
    expect(await t.database.db('github_identities').join('users', 'users.id', 'github_identities.user_id').where({ login: name })).toEqual(
      [],
    );
    expect(t.logs.events('github_sign_in_refused')).toContainEqual(expect.objectContaining({ reason: 'browser' }));
  });

  it('on a plain-http local address, where browsers refuse __Host- and Secure, uses the same cookie without them', async () => {
    const local = await createTestApp(
      signInEnv(gh, { SHIPGATE_PUBLIC_URL: 'http://127.0.0.1:3000', SHIPGATE_GITHUB_ALLOWED_ORGS: 'acme' }),
    );
    try {
      const name = login('laptop');
      gh.oauth.user(name, { orgs: ['acme'] });
      const flow = await signInWithGitHub(local, gh, name);
      expect(([] as string[]).concat(flow.start.headers['set-cookie'])).toEqual([
        expect.stringMatching(/^shipgate_github_sign_in=[A-Za-z0-9_-]{43}; Max-Age=600; Path=\/; HttpOnly; SameSite=Lax$/),
      ]);
      expect(flow.exchange?.status).toBe(200);
      const start = await local.request.get('/api/v1/auth/github/start').expect(302);
      expect((await throughGitHub(local, start.headers.location)).studio?.hash).toBe('#/sign-in?github_error=browser');
    } finally {
      await local.close();
    }
  });

  it('refuses a replayed state, and a used one-time code', async () => {
    const name = login('replay');
    gh.oauth.user(name, { orgs: ['acme'] });
    const flow = await signInWithGitHub(t, gh, name);
    expect(flow.exchange?.status).toBe(200);
    const again = await t.request.get(flow.callbackPath).set('Accept', 'text/html');
    expect([again.status, again.headers.location]).toEqual([303, 'https://shipgate.example/studio#/sign-in?github_error=state']);
    const api = await t.request.get(flow.callbackPath).expect(422);
    expect(JSON.stringify(api.body.detail)).toContain('unknown, already used or expired');
    const reused = await t.request.post('/api/v1/auth/github/exchange').send({ code: flow.code }).expect(422);
    expect(JSON.stringify(reused.body.detail)).toContain('already used');
  });

  it('refuses an expired state', async () => {
    gh.oauth.signedInAs = login('late');
    gh.oauth.user(gh.oauth.signedInAs, { orgs: ['acme'] });
    const start = await t.request.get('/api/v1/auth/github/start').expect(302);
    await t.database.db('github_sign_in_states').update({ expires_at: new Date(Date.now() - 1000) });
    const flow = await throughGitHub(t, start);
    expect(flow.studio?.hash).toBe('#/sign-in?github_error=state');
  });

  it('sends a browser whose user cancelled on GitHub back to the sign-in page with a reason', async () => {
    gh.oauth.deny = true;
    try {
      const start = await t.request.get('/api/v1/auth/github/start').expect(302);
      const flow = await throughGitHub(t, start);
      expect(flow.studio?.hash).toBe('#/sign-in?github_error=denied');
      const api = await throughGitHub(t, await t.request.get('/api/v1/auth/github/start'), {
        Accept: 'application/json',
      });
      expect([api.callback.status, api.callback.body.detail]).toEqual([403, expect.stringContaining('cancelled')]);
    } finally {
      gh.oauth.deny = false;
    }
  });

  it('says so when an allowed organisation cannot be asked (the App is not installed there)', async () => {
    const other = await createTestApp(signInEnv(gh, { SHIPGATE_GITHUB_ALLOWED_ORGS: 'initech' }));
    try {
      const name = login('peter');
      gh.oauth.user(name, { orgs: ['initech'] });
      const flow = await signInWithGitHub(other, gh, name);
      expect(flow.studio?.hash).toBe('#/sign-in?github_error=org_unverifiable');
      gh.oauth.signedInAs = name;
      const api = await throughGitHub(other, await other.request.get('/api/v1/auth/github/start'), {});
      expect(api.callback.body.detail).toMatch(/not installed on that organisation.*members: read/);
    } finally {
      await other.close();
    }
  });

  it('serves a client that asks for JSON: the authorization URL, then the one-time code, then the key', async () => {
    const name = login('cli');
    gh.oauth.user(name, { orgs: ['acme'] });
    gh.oauth.signedInAs = name;
    const json = { Accept: 'application/json' };
    const start = await t.request.get('/api/v1/auth/github/start').set(json).expect(200);
    expect(start.body.authorize_url).toMatch(new RegExp(`^http://${gh.host}/login/oauth/authorize\\?`));
    const flow = await throughGitHub(t, start, json);
    expect([flow.callback.status, flow.callback.body.result, flow.callback.body.github_login]).toEqual([200, 'signed_in', name]);
    const key = await t.request
      .post('/api/v1/auth/github/exchange')
      .set('Cookie', sentCookie(start))
      .send({ code: flow.callback.body.code })
      .expect(200);
    expect((await me(key.body.api_key).expect(200)).body.github.login).toBe(name);
  });

  it('trades a code only for the browser that finished the callback: a code handed to another browser signs no one in (login CSRF)', async () => {
    const attacker = login('csrf');
    gh.oauth.user(attacker, { orgs: ['acme'] });
    gh.oauth.signedInAs = attacker;
    const json = { Accept: 'application/json' };
    const start = await t.request.get('/api/v1/auth/github/start').set(json).expect(200);
    const flow = await throughGitHub(t, start, json);
    const code = flow.callback.body.code as string;
    // The victim's studio opened `#/sign-in?github_code=<code>`: its exchange carries no cookie, or its own.
    const victimsStart = await t.request.get('/api/v1/auth/github/start').set(json).expect(200);
    for (const cookie of [undefined, sentCookie(victimsStart)]) {
      const req = t.request.post('/api/v1/auth/github/exchange');
      const refused = await (cookie ? req.set('Cookie', cookie) : req).send({ code }).expect(422);
      expect(refused.body.detail[0]).toMatchObject({ loc: ['body', 'code'], msg: expect.stringContaining('given to another browser') });
    }
    // The callback kept the cookie for the exchange; the exchange removes it.
    expect(([] as string[]).concat(flow.callback.headers['set-cookie'])[0]).toMatch(/shipgate_github_sign_in=[^;]+; Max-Age=600/);
    const own = await t.request.post('/api/v1/auth/github/exchange').set('Cookie', sentCookie(start)).send({ code }).expect(200);
    expect(([] as string[]).concat(own.headers['set-cookie'])[0]).toMatch(/shipgate_github_sign_in=; Max-Age=0/);
    expect((await me(own.body.api_key).expect(200)).body.github.login).toBe(attacker);
  });

  it('signs in when GitHub refuses to revoke the user token, and logs why without the token', async () => {
    const name = login('unrevoked');
    gh.oauth.user(name, { orgs: ['acme'] });
    gh.app.failNext('DELETE', /^\/applications\/[^/]+\/token$/, gitHubError(422, 'Validation Failed'));
    const flow = await signInWithGitHub(t, gh, name);
    expect(flow.exchange?.status).toBe(200);
    const token = gh.oauth.issuedTokens.at(-1)!;
    expect(gh.oauth.revokedTokens).not.toContain(token);
    expect(t.logs.events('github_sign_in_token_not_revoked')).toEqual([
      expect.objectContaining({ reason: "GitHub answered 422 to revoking the sign-in's user token." }),
    ]);
    expect(t.logs.text()).not.toContain(token);
  });

  it('never puts the API key in a URL or a log line', async () => {
    const name = login('quiet');
    gh.oauth.user(name, { orgs: ['acme'] });
    const flow = await signInWithGitHub(t, gh, name);
    const key = flow.exchange!.body.api_key as string;
    expect(key).toMatch(/^sg_/);
    for (const url of flow.urls) expect(url).not.toContain(key);
    const logs = t.logs.text();
    expect(logs).toContain('"event":"github_sign_in"');
    expect(logs).not.toContain(key);
    expect(logs).not.toContain(flow.code!);
    for (const token of gh.oauth.issuedTokens) expect(logs).not.toContain(token);
  });
});
