import { createTestApp, type EmptyTestApp, type TestApp } from '../support/test-app.js';

const password = 'correct horse battery';
const closedMessage = { detail: 'Registration is closed; an ADMIN must create the account.' };

describe('SHIPGATE_REGISTRATION=closed', () => {
  const CLOSED = { SHIPGATE_REGISTRATION: 'closed' };
  // Every test but the first-user one starts from an install whose ADMIN registered first.
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(CLOSED);
  });
  afterAll(async () => {
    await t.close();
  });

  const register = (app: EmptyTestApp, body: Record<string, string>, key?: string) => {
    const req = app.request.post('/api/v1/auth/register');
    if (key) req.set('Authorization', `Bearer ${key}`);
    return req.send({ password, ...body });
  };

  it('still lets the very first user in, as ADMIN, so a closed install can start', async () => {
    const fresh = await createTestApp(CLOSED, { empty: true });
    try {
      const first = await register(fresh, { email: 'root@example.com', name: 'Root' });
      expect(first.status).toBe(201);
      expect(first.body.role).toBe('ADMIN');
    } finally {
      await fresh.close();
    }
  });

  it('refuses anonymous registration with 403 once a user exists', async () => {
    const res = await register(t, { email: 'walk-in@example.com', name: 'Walk In' });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(closedMessage);
    const login = await t.request.post('/api/v1/auth/login').send({ email: 'walk-in@example.com', password });
    expect(login.status).toBe(401);
  });

  it('lets an ADMIN register users with a chosen role, or the default role', async () => {
    const operator = await register(t, { email: 'op@example.com', name: 'Op', role: 'OPERATOR' }, t.admin.key);
    expect(operator.status).toBe(201);
    expect(operator.body).toMatchObject({ email: 'op@example.com', role: 'OPERATOR' });
    const me = await t.request.get('/api/v1/auth/me').set('Authorization', `Bearer ${operator.body.api_key}`);
    expect(me.body).toMatchObject({ email: 'op@example.com', role: 'OPERATOR' });
    const plain = await register(t, { email: 'plain@example.com', name: 'Plain' }, t.admin.key);
    expect(plain.body.role).toBe('VIEWER');
  });

  it('refuses a non-ADMIN key with 403, and a bad key with 401', async () => {
    const operator = await register(t, { email: 'op-2@example.com', name: 'Op', role: 'OPERATOR' }, t.admin.key);
    const res = await register(t, { email: 'friend@example.com', name: 'Friend', role: 'ADMIN' }, operator.body.api_key);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(closedMessage);
    const bad = await register(t, { email: 'friend@example.com', name: 'Friend' }, 'sg_forged');
    expect(bad.status).toBe(401);
  });
});

describe('SHIPGATE_REGISTRATION=open (the default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ SHIPGATE_DEFAULT_ROLE: 'OPERATOR' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('gives self-registered users SHIPGATE_DEFAULT_ROLE whatever role they ask for', async () => {
    const res = await t.request.post('/api/v1/auth/register').send({ email: 'self@example.com', name: 'Self', password, role: 'ADMIN' });
    expect(res.status).toBe(201);
    expect(res.body.role).toBe('OPERATOR');
  });

  it('honours the role an ADMIN sets, but not one a non-ADMIN sets', async () => {
    const byAdmin = await t.request
      .post('/api/v1/auth/register')
      .set(t.admin.auth)
      .send({ email: 'aud@example.com', name: 'Aud', password, role: 'AUDITOR' });
    expect(byAdmin.body.role).toBe('AUDITOR');
    const byAuditor = await t.request
      .post('/api/v1/auth/register')
      .set('Authorization', `Bearer ${byAdmin.body.api_key}`)
      .send({ email: 'sneaky@example.com', name: 'Sneaky', password, role: 'ADMIN' });
    expect(byAuditor.status).toBe(201);
    expect(byAuditor.body.role).toBe('OPERATOR');
  });
});
