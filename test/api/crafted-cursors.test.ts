import { createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const cursor = (time: string, id = 'cafebb82-e608-4c9d-92d8-ba18740260ce') => Buffer.from(JSON.stringify([time, id])).toString('base64url');

describe('a crafted cursor', () => {
  // Times JavaScript parses but PostgreSQL refuses (a 500 before) or reads otherwise, and an id no UUID.
  const crafted = [
    cursor('2026-11-29 12:04:31 +2500'),
    cursor('2026-11-29 12:04:31+99'),
    cursor('0000-01-01T00:00:00.000000Z'),
    cursor('2026-02-31T00:00:00.000000Z'),
    cursor('Nov 29 2026'),
  ];
  // GitHub's delivery ids are not always UUIDs; every other list's are.
  const notUuid = cursor('2026-11-29T12:04:31.000000Z', '-'.repeat(36));

  it('is 422 at query.cursor on every keyset-paged list, the deliveries included', async () => {
    for (const path of [
      '/api/v1/users',
      '/api/v1/executions',
      '/api/v1/workflows',
      '/api/v1/releases/promotions',
      '/api/v1/github/deliveries',
    ]) {
      for (const raw of path.endsWith('/deliveries') ? crafted : [...crafted, notUuid]) {
        const res = await t.request.get(path).query({ cursor: raw }).set(t.admin.auth);
        expect([path, raw, res.status, res.body.detail?.[0]?.loc]).toEqual([path, raw, 422, ['query', 'cursor']]);
      }
    }
  });

  it('is still taken as issued: to the microsecond, in UTC', async () => {
    const res = await t.request
      .get('/api/v1/users')
      .query({ cursor: cursor('2999-12-31T23:59:59.999999Z') })
      .set(t.admin.auth);
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(0);
  });
});
