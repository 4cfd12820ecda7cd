import { createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { reviewedRelease } from './support/stage-model.js';

// No worker here: workflows stay queued, so what is checked is who sees and changes them.
let t: TestApp;
let owner: TestUser;
let other: TestUser;
let auditor: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  [owner, other, auditor] = [await t.user('OPERATOR'), await t.user('OPERATOR'), await t.user('AUDITOR')];
});
afterAll(async () => {
  await t.close();
});

const create = async (user: TestUser, name = 'wf') =>
  (await t.request.post('/api/v1/workflows').set(user.auth).send(reviewedRelease({ name }))).body as { id: string };
const ids = (res: { body: { id: string }[] }) => res.body.map((w) => w.id);

describe('who sees a workflow', () => {
  it("another operator gets 404 for someone else's workflow (GET, DELETE, export) and does not list it", async () => {
    const mine = await create(owner);
    const unknown = await t.request.get('/api/v1/workflows/00000000-0000-4000-8000-000000000000').set(other.auth);
    for (const res of [
      await t.request.get(`/api/v1/workflows/${mine.id}`).set(other.auth),
      await t.request.delete(`/api/v1/workflows/${mine.id}`).set(other.auth),
      await t.request.get(`/api/v1/workflows/${mine.id}/export`).set(other.auth),
    ]) {
      expect([res.status, res.body]).toEqual([404, unknown.body]);
    }
    expect(ids(await t.request.get('/api/v1/workflows').set(other.auth))).not.toContain(mine.id);
    expect(ids(await t.request.get('/api/v1/workflows').set(owner.auth))).toContain(mine.id);
    expect((await t.request.get(`/api/v1/workflows/${mine.id}`).set(owner.auth)).body.status).toBe('queued');
  });

  it('scope=all for ADMIN and AUDITOR only; an AUDITOR reads and exports but may not cancel', async () => {
    const mine = await create(owner);
    expect(ids(await t.request.get('/api/v1/workflows?scope=all').set(auditor.auth))).toContain(mine.id);
    expect(ids(await t.request.get('/api/v1/workflows?scope=all').set(t.admin.auth))).toContain(mine.id);
    expect((await t.request.get('/api/v1/workflows?scope=all').set(other.auth)).status).toBe(403);
    expect((await t.request.get(`/api/v1/workflows/${mine.id}/export`).set(auditor.auth)).status).toBe(200);
    expect((await t.request.delete(`/api/v1/workflows/${mine.id}`).set(auditor.auth)).status).toBe(403);
  });

  it('cancels a queued workflow before any stage started', async () => {
    const mine = await create(owner);
    const res = await t.request.delete(`/api/v1/workflows/${mine.id}`).set(owner.auth);
    expect([res.status, res.body]).toEqual([
      200,
      { id: mine.id, status: 'cancelled', cancelled_stage_ids: ['review', 'release', 'announce'] },
    ]);
    const after = await t.request.get(`/api/v1/workflows/${mine.id}`).set(owner.auth);
    expect(after.body.stages.map((s: { status: string; execution_id: null }) => [s.status, s.execution_id])).toEqual([
      ['cancelled', null],
      ['cancelled', null],
      ['cancelled', null],
    ]);
  });
});

describe('GET /workflows', () => {
  it('pages newest first through the Link header and filters by status', async () => {
    const lister = await t.user('OPERATOR');
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push((await create(lister, `page ${i}`)).id);
    await t.request.delete(`/api/v1/workflows/${created[1]}`).set(lister.auth);
    const seen: string[] = [];
    let next: string | undefined = '/api/v1/workflows?limit=2';
    while (next) {
      const res: { status: number; body: { id: string }[]; headers: Record<string, string> } = await t.request.get(next).set(lister.auth);
      expect(res.status).toBe(200);
      expect(res.body.length).toBeLessThanOrEqual(2);
      seen.push(...ids(res));
      next = /<([^>]+)>; rel="next"/.exec(res.headers.link ?? '')?.[1];
    }
    expect(seen).toEqual([...created].reverse());
    expect(ids(await t.request.get('/api/v1/workflows?status=cancelled').set(lister.auth))).toEqual([created[1]]);
    expect((await t.request.get('/api/v1/workflows?status=done').set(lister.auth)).status).toBe(422);
    const [first] = (await t.request.get('/api/v1/workflows?limit=1').set(lister.auth)).body;
    expect(first.stages.map((s: { id: string }) => s.id)).toEqual(['review', 'release', 'announce']);
  });
});
