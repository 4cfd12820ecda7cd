import { createHash } from 'node:crypto';
import type { Response } from 'supertest';
import { createTestApp, type EmptyTestApp } from '../support/test-app.js';

let t: EmptyTestApp;
beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'trace' }, { empty: true });
});
afterAll(async () => {
  await t.close();
});

const password = 'Sup3r-Secret-Passphrase';
const wrongPassword = 'Wr0ng-Secret-Guess';
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

describe('secrets', () => {
  it('never appear in a response (beyond the one api_key field) or a log line, and are stored only hashed', async () => {
    const responses: Response[] = [];
    const issued: string[] = [];
    const call = async (res: Promise<Response> | Response) => {
      const r = await res;
      responses.push(r);
      if (typeof r.body?.api_key === 'string') issued.push(r.body.api_key);
      return r;
    };
    const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

    const reg = await call(t.request.post('/api/v1/auth/register').send({ email: 'owner@example.com', name: 'Owner', password }));
    expect(reg.status).toBe(201);
    const k1 = reg.body.api_key;
    const k2 = (await call(t.request.post('/api/v1/auth/login').send({ email: 'owner@example.com', password }))).body.api_key;
    expect((await call(t.request.post('/api/v1/auth/login').send({ email: 'owner@example.com', password: wrongPassword }))).status).toBe(
      401,
    );
    expect((await call(t.request.post('/api/v1/auth/login').send({ email: 'ghost@example.com', password: wrongPassword }))).status).toBe(
      401,
    );
    expect((await call(t.request.post('/api/v1/auth/register').send({ email: 'owner@example.com', name: 'Again', password }))).status).toBe(
      409,
    );
    expect((await call(t.request.post('/api/v1/auth/register').send({ email: 'bad', name: 'Bad', password: 'short' }))).status).toBe(422);
    const k3 = (await call(t.request.post('/api/v1/auth/rotate').set(bearer(k2)))).body.api_key;
    expect((await call(t.request.post('/api/v1/auth/rotate').set(bearer(k2)))).status).toBe(401);
    expect((await call(t.request.get('/api/v1/auth/me').set(bearer(k1)))).status).toBe(200);
    expect((await call(t.request.get('/api/v1/auth/me').set('X-API-Key', k3))).status).toBe(200);
    expect((await call(t.request.get(`/api/v1/auth/me?api_key=${k3}`))).status).toBe(401);
    expect((await call(t.request.get('/api/v1/users').set(bearer(k3)))).status).toBe(200);
    expect(issued).toHaveLength(3);

    const rows = {
      users: await t.database.db('users').select('*'),
      api_keys: await t.database.db('api_keys').select('*'),
    };
    const passwordHashes = rows.users.map((u) => u.password_hash as string);
    const secrets = [password, wrongPassword, ...issued, ...issued.map(sha256), ...passwordHashes];

    for (const res of responses) {
      const { api_key: _shownOnce, ...rest } = (res.body ?? {}) as Record<string, unknown>;
      const visible = JSON.stringify({ body: rest, headers: res.headers });
      for (const secret of secrets) expect(visible).not.toContain(secret);
    }
    const logs = t.logs.text();
    expect(t.logs.lines.length).toBeGreaterThan(responses.length - 1);
    for (const secret of secrets) expect(logs).not.toContain(secret);

    // Keys only as SHA-256, passwords only as argon2id.
    expect(rows.api_keys.map((k) => k.key_hash).sort()).toEqual(issued.map(sha256).sort());
    const stored = JSON.stringify(rows);
    for (const secret of [password, ...issued]) expect(stored).not.toContain(secret);
    for (const hash of passwordHashes) expect(hash).toMatch(/^\$argon2id\$v=19\$m=\d+,t=\d+,p=\d+\$/);
  });
});
