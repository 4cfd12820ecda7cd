import { createTestApp, type TestApp } from '../support/test-app.js';

const studio = 'https://studio.example.com';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SHIPGATE_CORS_ORIGINS: `${studio}, http://localhost:5173` });
});
afterAll(async () => {
  await t.close();
});

const corsHeaders = (headers: Record<string, string>) => Object.keys(headers).filter((h) => h.startsWith('access-control-'));

describe('CORS', () => {
  it('lets a listed origin read responses, errors included', async () => {
    const ok = await t.request.get('/api/v1/auth/me').set('Origin', studio).set(t.admin.auth);
    expect(ok.status).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe(studio);
    expect(ok.headers.vary).toMatch(/Origin/);
    expect(ok.headers['access-control-expose-headers']).toMatch(/Link/);
    expect(ok.headers['access-control-expose-headers']).toMatch(/X-Request-Id/);
    const denied = await t.request.get('/api/v1/auth/me').set('Origin', 'http://localhost:5173');
    expect(denied.status).toBe(401);
    expect(denied.headers['access-control-allow-origin']).toBe('http://localhost:5173');
  });

  it("answers a listed origin's preflight with 204 and the allowed methods and headers", async () => {
    const res = await t.request
      .options('/api/v1/users/00000000-0000-4000-8000-000000000000')
      .set('Origin', studio)
      .set('Access-Control-Request-Method', 'PATCH')
      .set('Access-Control-Request-Headers', 'authorization, content-type');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(studio);
    expect(res.headers['access-control-allow-methods']).toMatch(/PATCH/);
    expect(res.headers['access-control-allow-headers']).toMatch(/Authorization/);
    expect(res.headers['access-control-allow-headers']).toMatch(/Content-Type/);
  });

  it('gives any other origin nothing, on requests and preflights', async () => {
    const res = await t.request.get('/api/v1/auth/me').set('Origin', 'https://evil.example.com').set(t.admin.auth);
    expect(res.status).toBe(200);
    expect(corsHeaders(res.headers)).toEqual([]);
    expect(res.headers.vary).toMatch(/Origin/);
    const preflight = await t.request
      .options('/api/v1/auth/me')
      .set('Origin', 'https://evil.example.com')
      .set('Access-Control-Request-Method', 'GET');
    expect(corsHeaders(preflight.headers)).toEqual([]);
    const lookalike = await t.request.get('/healthz').set('Origin', `${studio}.evil.example.com`);
    expect(corsHeaders(lookalike.headers)).toEqual([]);
  });

  it('allows no origin at all when SHIPGATE_CORS_ORIGINS is unset', async () => {
    const plain = await createTestApp();
    try {
      const res = await plain.request.get('/healthz').set('Origin', studio);
      expect(corsHeaders(res.headers)).toEqual([]);
    } finally {
      await plain.close();
    }
  });
});
