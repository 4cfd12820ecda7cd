import type { Response } from 'supertest';
import { createTestApp, type TestApp } from '../support/test-app.js';

// Keyset pages must neither skip nor repeat a row, even when rows were created within the same
// millisecond (PostgreSQL keeps microseconds; a cursor that kept only milliseconds skipped rows).
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const SAME_MILLISECOND = [
  '2030-01-01T00:00:00.123900Z',
  '2030-01-01T00:00:00.123456Z',
  '2030-01-01T00:00:00.123200Z',
  '2030-01-01T00:00:00.123200Z',
];

/** Follows the Link header from `first` to the end; every id, in order. */
async function walk(first: string, auth: { Authorization: string }): Promise<string[]> {
  const ids: string[] = [];
  for (let url: string | undefined = first; url;) {
    const res: Response = await t.request.get(url).set(auth);
    expect(res.status).toBe(200);
    ids.push(...(res.body as { id: string }[]).map((r) => r.id));
    url = /<([^>]+)>; rel="next"/.exec(res.headers.link ?? '')?.[1];
  }
  return ids;
}

describe('keyset pagination', () => {
  it('lists every user exactly once, page by page, with creation times a microsecond apart', async () => {
    const created = [];
    for (const at of SAME_MILLISECOND) {
      const user = await t.user('VIEWER');
      await t.database.db('users').where({ id: user.id }).update({ created_at: at });
      created.push(user.id);
    }
    const ids = await walk('/api/v1/users?limit=1', t.admin.auth);
    expect(ids.slice(0, 4)).toEqual([created[0], created[1], ...created.slice(2).sort().reverse()]);
    expect(new Set(ids).size).toBe(ids.length);
    // Every user: these, the ADMIN and any another test registered.
    const everyone: string[] = await t.database.db('users').pluck('id');
    expect([...ids].sort()).toEqual(everyone.sort());
  });

  it('lists every execution exactly once, page by page, with creation times a microsecond apart', async () => {
    const owner = await t.user('OPERATOR');
    const created = [];
    for (const at of SAME_MILLISECOND) {
      const res = await t.request
        .post('/api/v1/tasks')
        .set(owner.auth)
        .send({ task: `Created at ${at}` });
      await t.database.db('executions').where({ id: res.body.id }).update({ created_at: at });
      created.push(res.body.id as string);
    }
    const ids = await walk('/api/v1/executions?limit=1', owner.auth);
    expect(ids).toEqual([created[0], created[1], ...created.slice(2).sort().reverse()]);
  });
});
