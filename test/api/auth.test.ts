import { createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const password = 'correct horse battery';

describe('register', () => {
  it('makes the first user ADMIN and later ones the default role, ignoring a requested role', async () => {
    const fresh = await createTestApp({}, { empty: true });
    const first = await fresh.request.post('/api/v1/auth/register').send({ email: 'First@Example.com', name: 'First', password });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ email: 'first@example.com', name: 'First', role: 'ADMIN' });
    expect(first.body.api_key).toMatch(/^sg_[A-Za-z0-9_-]{43}$/);
    const second = await fresh.request
      .post('/api/v1/auth/register')
      .send({ email: 'second@example.com', name: 'S', password, role: 'ADMIN' });
    expect(second.status).toBe(201);
    expect(second.body.role).toBe('VIEWER');
    await fresh.close();
  });

  it('answers 409 for a duplicate e-mail in another case', async () => {
    await t.request.post('/api/v1/auth/register').send({ email: 'dup@example.com', name: 'D', password }).expect(201);
    const res = await t.request.post('/api/v1/auth/register').send({ email: 'DUP@example.COM', name: 'D', password });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ detail: 'An account with this email already exists.' });
  });

  it('validates fields with 422 and a list of {loc, msg, type}', async () => {
    const res = await t.request.post('/api/v1/auth/register').send({ email: 'not-an-email', name: '', password: 'short' });
    expect(res.status).toBe(422);
    const locs = res.body.detail.map((d: { loc: string[] }) => d.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.email', 'body.name', 'body.password']));
    for (const d of res.body.detail) expect(d).toEqual({ loc: expect.any(Array), msg: expect.any(String), type: expect.any(String) });
  });

  it('refuses a field it does not know (422), as every other body does, and so does login', async () => {
    const extra = await t.request.post('/api/v1/auth/register').send({ email: 'extra@example.com', name: 'E', password, extra: 1 });
    expect([extra.status, extra.body.detail[0].loc, extra.body.detail[0].msg]).toEqual([422, ['body'], expect.stringContaining('"extra"')]);
    const login = await t.request.post('/api/v1/auth/login').send({ email: 'extra@example.com', password, remember: true });
    expect([login.status, login.body.detail[0].loc]).toEqual([422, ['body']]);
  });
});

describe('login', () => {
  it('issues a new key and leaves the other keys working', async () => {
    const reg = await t.request.post('/api/v1/auth/register').send({ email: 'login@example.com', name: 'L', password }).expect(201);
    const login = await t.request.post('/api/v1/auth/login').send({ email: 'LOGIN@example.com', password });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ id: reg.body.id, email: 'login@example.com', role: reg.body.role });
    expect(login.body.api_key).not.toBe(reg.body.api_key);
    await t.request.get('/api/v1/auth/me').set('Authorization', `Bearer ${reg.body.api_key}`).expect(200);
    await t.request.get('/api/v1/auth/me').set('X-API-Key', login.body.api_key).expect(200);
  });

  it('gives the same 401 for a wrong password and an unknown e-mail', async () => {
    await t.request.post('/api/v1/auth/register').send({ email: 'same@example.com', name: 'S', password }).expect(201);
    const wrong = await t.request.post('/api/v1/auth/login').send({ email: 'same@example.com', password: 'wrong password' });
    const unknown = await t.request.post('/api/v1/auth/login').send({ email: 'nobody@example.com', password });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ detail: 'Invalid email or password.' });
    expect(unknown.body).toEqual(wrong.body);
  });
});

describe('keys', () => {
  it('refuses a rotated key on the very next call and accepts the new one', async () => {
    const user = await t.user('OPERATOR');
    const rotated = await t.request.post('/api/v1/auth/rotate').set(user.auth);
    expect(rotated.status).toBe(200);
    expect(rotated.body.api_key).toMatch(/^sg_/);
    const old = await t.request.get('/api/v1/auth/me').set(user.auth);
    expect(old.status).toBe(401);
    expect(old.body).toEqual({ detail: 'Invalid API key.' });
    const me = await t.request.get('/api/v1/auth/me').set('Authorization', `Bearer ${rotated.body.api_key}`);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: user.id, role: 'OPERATOR' });
  });

  it('signs out: logout revokes only the calling key (204), which answers 401 from then on', async () => {
    const user = await t.user('VIEWER');
    const session = await t.request.post('/api/v1/auth/login').send({ email: user.email, password });
    const sessionAuth = { Authorization: `Bearer ${session.body.api_key}` };
    const out = await t.request.post('/api/v1/auth/logout').set(sessionAuth);
    expect(out.status).toBe(204);
    expect(out.text).toBe('');
    const after = await t.request.get('/api/v1/auth/me').set(sessionAuth);
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ detail: 'Invalid API key.' });
    expect((await t.request.post('/api/v1/auth/logout').set(sessionAuth)).status).toBe(401);
    // The user's other key (say, a CI key) still works.
    expect((await t.request.get('/api/v1/auth/me').set(user.auth)).status).toBe(200);
  });

  it('answers 401 with WWW-Authenticate for a missing or invalid key, and never reads a query key', async () => {
    const missing = await t.request.get('/api/v1/auth/me');
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer');
    expect(missing.body).toEqual({ detail: 'Missing API key.' });
    const invalid = await t.request.get('/api/v1/auth/me').set('Authorization', 'Bearer sg_nope');
    expect(invalid.body).toEqual({ detail: 'Invalid API key.' });
    const user = await t.user('VIEWER');
    const viaQuery = await t.request.get(`/api/v1/auth/me?api_key=${user.key}`);
    expect(viaQuery.status).toBe(401);
  });
});

describe('users (ADMIN)', () => {
  it('lets an ADMIN change roles and deactivate; a deactivated user gets 403', async () => {
    const admin = await t.user('ADMIN');
    const viewer = await t.user('VIEWER');
    const patched = await t.request.patch(`/api/v1/users/${viewer.id}`).set(admin.auth).send({ role: 'APPROVER' });
    expect(patched.status).toBe(200);
    expect(patched.body.role).toBe('APPROVER');
    await t.request.patch(`/api/v1/users/${viewer.id}`).set(admin.auth).send({ active: false }).expect(200);
    const me = await t.request.get('/api/v1/auth/me').set(viewer.auth);
    expect(me.status).toBe(403);
    expect(me.body).toEqual({ detail: 'Account deactivated.' });
    const login = await t.request.post('/api/v1/auth/login').send({ email: viewer.email, password });
    expect(login.status).toBe(403);
  });

  it('refuses non-admins with 403 naming the roles, and unknown users with 404', async () => {
    const viewer = await t.user('VIEWER');
    const res = await t.request.get('/api/v1/users').set(viewer.auth);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: 'Requires one of: ADMIN' });
    const admin = await t.user('ADMIN');
    await t.request.patch('/api/v1/users/00000000-0000-4000-8000-000000000000').set(admin.auth).send({ role: 'VIEWER' }).expect(404);
    await t.request.patch('/api/v1/users/not-a-uuid').set(admin.auth).send({ role: 'VIEWER' }).expect(422);
  });

  it('pages users newest first with a Link header', async () => {
    const admin = await t.user('ADMIN');
    for (let i = 0; i < 3; i++) await t.user('VIEWER');
    const first = await t.request.get('/api/v1/users?limit=2').set(admin.auth);
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(2);
    const link = first.headers.link as string;
    expect(link).toMatch(/^<\/api\/v1\/users\?limit=2&cursor=[^>]+>; rel="next"$/);
    const next = await t.request.get(link.slice(1, link.indexOf('>'))).set(admin.auth);
    expect(next.status).toBe(200);
    expect(next.body[0].id).not.toBe(first.body[1].id);
    expect(Date.parse(next.body[0].created_at)).toBeLessThanOrEqual(Date.parse(first.body[1].created_at));
    await t.request.get('/api/v1/users?cursor=garbage').set(admin.auth).expect(422);
    await t.request.get('/api/v1/users?limit=101').set(admin.auth).expect(422);
  });
});
