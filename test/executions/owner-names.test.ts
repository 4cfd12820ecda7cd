import { createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { reviewedRelease } from '../workflows/support/stage-model.js';

// No worker: the records stay queued; what is checked is that every response naming the owner by id carries their name.
let t: TestApp;
let owner: TestUser;
let auditor: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.user('OPERATOR', 'olive.owner@example.com');
  auditor = await t.user('AUDITOR');
});
afterAll(async () => {
  await t.close();
});

const named = { owner_name: 'olive.owner' };

describe('owner_name beside owner_id (docs/api.md, "People by name")', () => {
  it('on every execution response: created, listed (own and scope=all), read, cancelled', async () => {
    const created = await t.request.post('/api/v1/tasks').set(owner.auth).send({ task: 'Name the owner.' }).expect(201);
    expect(created.body).toMatchObject({ owner_id: owner.id, ...named });
    const id = created.body.id as string;
    const own = await t.request.get('/api/v1/executions').set(owner.auth).expect(200);
    expect(own.body.find((e: { id: string }) => e.id === id)).toMatchObject(named);
    const all = await t.request.get('/api/v1/executions?scope=all').set(auditor.auth).expect(200);
    expect(all.body.find((e: { id: string }) => e.id === id)).toMatchObject(named);
    expect((await t.request.get(`/api/v1/executions/${id}`).set(auditor.auth).expect(200)).body).toMatchObject(named);
    expect((await t.request.delete(`/api/v1/executions/${id}`).set(t.admin.auth).expect(200)).body).toMatchObject(named);
  });

  it('on every workflow response: created, listed (own and scope=all), read', async () => {
    const created = await t.request
      .post('/api/v1/workflows')
      .set(owner.auth)
      .send(reviewedRelease({ name: 'named' }))
      .expect(201);
    expect(created.body).toMatchObject({ owner_id: owner.id, ...named });
    const id = created.body.id as string;
    const own = await t.request.get('/api/v1/workflows').set(owner.auth).expect(200);
    expect(own.body.find((w: { id: string }) => w.id === id)).toMatchObject(named);
    const all = await t.request.get('/api/v1/workflows?scope=all').set(auditor.auth).expect(200);
    expect(all.body.find((w: { id: string }) => w.id === id)).toMatchObject(named);
    expect((await t.request.get(`/api/v1/workflows/${id}`).set(auditor.auth).expect(200)).body).toMatchObject(named);
  });
});
