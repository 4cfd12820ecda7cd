import { gzipSync } from 'node:zlib';
import { jest } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import supertest from 'supertest';
import type { Response } from 'supertest';
import { allRoutes } from '../../api/all-routes.js';
import { buildDeps } from '../../server/build-deps.js';
import { createLogger } from '../../server/create-logger.js';
import { createMetrics } from '../../server/create-metrics.js';
import { createServer } from '../../api/create-server.js';
import type { Deps } from '../../api/deps.js';
import { buildOpenApiDocument } from '../../api/openapi-document.js';
import { createKnex } from '../../db/create-knex.js';
import { freePort } from '../../db/start-embedded-postgres.js';
import { logCapture } from '../support/log-capture.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const password = 'correct horse battery';
const document = buildOpenApiDocument(allRoutes) as unknown as {
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
};

/** An error a test provoked must be one the OpenAPI document lists for that operation. */
function expectDocumented(res: Response, method: string, path: string): void {
  expect(Object.keys(document.paths[`/api/v1${path}`][method].responses)).toContain(String(res.status));
}

function expectError(res: Response, status: number, detail?: unknown): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.headers['x-request-id']).toEqual(expect.any(String));
  if (detail !== undefined) expect(res.body).toEqual({ detail });
  else expect(res.body).toEqual({ detail: expect.anything() });
}

/** A second server over the same database and logs, with some dependencies replaced. */
function serverWith(overrides: Partial<Deps>) {
  const metrics = createMetrics(false);
  return supertest(createServer({ ...t.deps, ...overrides }, { metrics }).callback());
}

/** A body sent in chunks without Content-Length, so the server only learns its size by reading. */
async function postChunked(path: string, body: string): Promise<{ status: number; body: unknown }> {
  const server = http.createServer(t.app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise((resolve, reject) => {
      const req = http.request({ port, host: '127.0.0.1', path, method: 'POST', headers: { 'Content-Type': 'application/json' } });
      req.on('error', reject);
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      });
      for (let at = 0; at < body.length; at += 64 * 1024) req.write(body.slice(at, at + 64 * 1024));
      req.end();
    });
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

describe('request bodies', () => {
  it('answers 400 for malformed JSON', async () => {
    const res = await t.request.post('/api/v1/auth/register').set('Content-Type', 'application/json').send('{"email": "a@b.c",');
    expectError(res, 400, 'Malformed JSON body.');
    expectDocumented(res, 'post', '/auth/register');
  });

  it('answers 400 for malformed JSON over 1 MiB, which a parse thread reads', async () => {
    const truncated = JSON.stringify({ repo_root: 'acme/big', content: 'A'.repeat(2 * 1024 * 1024) }).slice(0, -2);
    const res = await t.request.post('/api/v1/releases/evidence').set(t.admin.auth).set('Content-Type', 'application/json').send(truncated);
    expectError(res, 400, 'Malformed JSON body.');
  });

  it('answers 413 for a 2 MiB body, declared or streamed', async () => {
    const big = JSON.stringify({ email: 'big@example.com', name: 'x'.repeat(2 * 1024 * 1024), password });
    const declared = await t.request.post('/api/v1/auth/register').set('Content-Type', 'application/json').send(big);
    expectError(declared, 413, 'Request body exceeds 1 MiB.');
    expectDocumented(declared, 'post', '/auth/register');
    const streamed = await postChunked('/api/v1/auth/login', big);
    expect(streamed).toEqual({ status: 413, body: { detail: 'Request body exceeds 1 MiB.' } });
  });

  it('answers 415 for a form-encoded body', async () => {
    const res = await t.request.post('/api/v1/auth/login').type('form').send({ email: 'a@example.com', password });
    expectError(res, 415, 'Request body must be application/json.');
    expectDocumented(res, 'post', '/auth/login');
  });

  it('answers 415 for a compressed body (it read as malformed JSON, 400)', async () => {
    const body = gzipSync(JSON.stringify({ email: 'a@example.com', password }));
    const res = await t.request
      .post('/api/v1/auth/login')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .send(body);
    expectError(res, 415, "Content-Encoding 'gzip' is not accepted: send the JSON body uncompressed.");
    expectDocumented(res, 'post', '/auth/login');
  });

  it('answers 422 with [{loc, msg, type}] for a body, a path and a query parameter', async () => {
    const body = await t.request.post('/api/v1/auth/login').send({ email: 42 });
    expect(body.status).toBe(422);
    expect(body.body.detail).toEqual(
      expect.arrayContaining([
        { loc: ['body', 'email'], msg: expect.any(String), type: expect.any(String) },
        { loc: ['body', 'password'], msg: expect.any(String), type: expect.any(String) },
      ]),
    );
    const path = await t.request.patch('/api/v1/users/nope').set(t.admin.auth).send({});
    expect(path.status).toBe(422);
    expect(path.body.detail[0].loc).toEqual(['path', 'user_id']);
    const query = await t.request.get('/api/v1/users?limit=0').set(t.admin.auth);
    expect(query.status).toBe(422);
    expect(query.body.detail[0].loc).toEqual(['query', 'limit']);
    expectDocumented(query, 'get', '/users');
  });

  it('answers 422, never 500, for a value the database cannot store', async () => {
    const login = await t.request.post('/api/v1/auth/login').send({ email: 'nul\u0000@example.com', password });
    expect(login.status).toBe(422);
    expect(login.body.detail).toEqual([{ loc: ['request'], msg: expect.stringContaining('NUL'), type: 'unstorable_value' }]);
    const register = await t.request.post('/api/v1/auth/register').send({ email: 'nul@example.com', name: 'N\u0000ul', password });
    expect(register.status).toBe(422);
  });
});

describe('authentication and roles', () => {
  it('answers 401 with WWW-Authenticate: Bearer for a missing or unknown key', async () => {
    const missing = await t.request.post('/api/v1/auth/rotate');
    expectError(missing, 401, 'Missing API key.');
    expect(missing.headers['www-authenticate']).toBe('Bearer');
    expectDocumented(missing, 'post', '/auth/rotate');
    const invalid = await t.request.get('/api/v1/users').set('X-API-Key', 'sg_not-a-key');
    expectError(invalid, 401, 'Invalid API key.');
    expect(invalid.headers['www-authenticate']).toBe('Bearer');
  });

  it('answers 403 naming the roles, and 403 for a deactivated account', async () => {
    const operator = await t.user('OPERATOR');
    const res = await t.request.get('/api/v1/users').set(operator.auth);
    expectError(res, 403, 'Requires one of: ADMIN');
    expectDocumented(res, 'get', '/users');
    await t.request.patch(`/api/v1/users/${operator.id}`).set(t.admin.auth).send({ active: false }).expect(200);
    expectError(await t.request.get('/api/v1/auth/me').set(operator.auth), 403, 'Account deactivated.');
  });

  it('documents the 401 and 403 of register and login, which need no key', async () => {
    const wrong = await t.request.post('/api/v1/auth/login').send({ email: 'nobody@example.com', password });
    expectError(wrong, 401, 'Invalid email or password.');
    expectDocumented(wrong, 'post', '/auth/login');
    const badKey = await t.request
      .post('/api/v1/auth/register')
      .set('Authorization', 'Bearer sg_nope')
      .send({ email: 'k@example.com', name: 'K', password });
    expectError(badKey, 401, 'Invalid API key.');
    expectDocumented(badKey, 'post', '/auth/register');
  });
});

describe('routing', () => {
  it('answers 404 {detail} for an unknown route, in and outside the API', async () => {
    expectError(await t.request.get('/api/v1/no-such-thing'), 404, 'Not found.');
    expectError(await t.request.get('/nothing-here'), 404, 'Not found.');
    expectError(await t.request.get('/docs/not-a-swagger-file.js'), 404, 'Not found.');
  });

  it('answers 404 for an unknown id', async () => {
    const res = await t.request.patch('/api/v1/users/00000000-0000-4000-8000-000000000000').set(t.admin.auth).send({ role: 'VIEWER' });
    expectError(res, 404, 'User not found.');
    expectDocumented(res, 'patch', '/users/{user_id}');
  });

  it('answers 405 with Allow for a known path and a wrong method', async () => {
    const res = await t.request.delete('/api/v1/auth/me').set(t.admin.auth);
    expectError(res, 405, 'Method not allowed.');
    expect(res.headers.allow).toContain('GET');
    const other = await t.request.put('/api/v1/users/00000000-0000-4000-8000-000000000000').set(t.admin.auth);
    expectError(other, 405);
    expect(other.headers.allow).toContain('PATCH');
  });

  it('answers 409 for a conflict', async () => {
    await t.request.post('/api/v1/auth/register').send({ email: 'conflict@example.com', name: 'C', password }).expect(201);
    const res = await t.request.post('/api/v1/auth/register').send({ email: 'conflict@example.com', name: 'C', password });
    expectError(res, 409, 'An account with this email already exists.');
    expectDocumented(res, 'post', '/auth/register');
  });
});

describe('rate limits', () => {
  it('answers 429 with Retry-After past SHIPGATE_RATE_LIMIT_PER_MINUTE for one key, not for another', async () => {
    const limited = await createTestApp({ SHIPGATE_RATE_LIMIT_PER_MINUTE: '2' });
    try {
      // Six calls over a fixed one-minute window: whichever window they fall in, one holds three.
      const statuses: Response[] = [];
      for (let i = 0; i < 6; i++) statuses.push(await limited.request.get('/api/v1/auth/me').set(limited.admin.auth));
      const refused = statuses.find((r) => r.status === 429)!;
      expectError(refused, 429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
      expectDocumented(refused, 'get', '/auth/me');
      const login = await limited.request.post('/api/v1/auth/login').send({ email: limited.admin.email, password });
      expect(login.status).toBe(200);
      await limited.request.get('/api/v1/auth/me').set('Authorization', `Bearer ${login.body.api_key}`).expect(200);
    } finally {
      await limited.close();
    }
  });

  it('limits register and login per client address', async () => {
    const limited = await createTestApp({ SHIPGATE_RATE_LIMIT_PER_MINUTE: '2' }, { empty: true });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++)
        statuses.push((await limited.request.post('/api/v1/auth/login').send({ email: `n${i}@example.com`, password })).status);
      expect(statuses).toContain(429);
      expect(statuses.filter((s) => s !== 429 && s !== 401)).toEqual([]);
    } finally {
      await limited.close();
    }
  });
});

describe('server errors', () => {
  it('answers 500 with only detail and request_id, never a stack or SQL, and logs the error', async () => {
    const failing = {
      ...t.deps.accounts,
      findKeyHolder: async () => {
        throw new Error('select * from "api_keys" where "key_hash" = $1 - column "boom" does not exist');
      },
    };
    const res = await serverWith({ accounts: failing }).get('/api/v1/auth/me').set(t.admin.auth).set('X-Request-Id', 'trace-500');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ detail: 'Internal server error', request_id: 'trace-500' });
    expect(res.text).not.toMatch(/select|api_keys|boom|at .*\.ts/i);
    const logged = t.logs.lines.map((l) => JSON.parse(l)).find((l) => l.request_id === 'trace-500' && l.level >= 50);
    expect(logged.err.message).toContain('boom');
  });

  it('answers 503 (never 500) when the database is unreachable', async () => {
    const unreachable = createKnex(`postgres://postgres@127.0.0.1:${await freePort()}/shipgate`, 1);
    const knexWarnings = jest.spyOn(console, 'log').mockImplementation(() => {}); // "Acquire connection error"
    try {
      const metrics = createMetrics(false);
      const logs = logCapture();
      const deps = buildDeps(t.deps.config, unreachable, createLogger('info', logs.stream), metrics);
      const request = supertest(createServer(deps, { metrics }).callback());
      expectError(await request.get('/readyz'), 503, 'Database unavailable.');
      const me = await request.get('/api/v1/auth/me').set(t.admin.auth);
      expectError(me, 503, 'Database unavailable.');
      expectDocumented(me, 'get', '/auth/me');
      expectError(await request.post('/api/v1/auth/login').send({ email: 'a@example.com', password }), 503, 'Database unavailable.');
      expectError(
        await request.post('/api/v1/auth/register').send({ email: 'a@example.com', name: 'A', password }),
        503,
        'Database unavailable.',
      );
      expect(await request.get('/healthz').then((r) => r.status)).toBe(200);
    } finally {
      knexWarnings.mockRestore();
      await unreachable.destroy();
    }
  });
});

describe('X-Request-Id', () => {
  it('echoes a client id and generates one otherwise, on successes and errors alike', async () => {
    const echoed = await t.request.get('/api/v1/auth/me').set(t.admin.auth).set('X-Request-Id', 'client-chosen-id.1');
    expect(echoed.headers['x-request-id']).toBe('client-chosen-id.1');
    for (const res of [await t.request.get('/healthz'), await t.request.get('/api/v1/auth/me'), await t.request.get('/missing')]) {
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
    const unsafe = await t.request.get('/healthz').set('X-Request-Id', 'has spaces and\ttabs');
    expect(unsafe.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const errored = await t.request.post('/api/v1/auth/login').set('X-Request-Id', 'err-1').type('form').send('a=b');
    expect(errored.headers['x-request-id']).toBe('err-1');
  });
});
