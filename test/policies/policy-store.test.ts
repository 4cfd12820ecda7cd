import { builtInPolicy } from '../../core/policies/built-in-policies.js';
import { createPolicyStore } from '../../db/stores/policy-store.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

const { version: _version, ...body } = { ...builtInPolicy('hipaa')!, name: 'team-policy' };

describe('policy store', () => {
  it('gives concurrent new versions of one name distinct, consecutive numbers', async () => {
    const store = createPolicyStore(database.db);
    const created = await Promise.all(
      Array.from({ length: 6 }, (_, i) => store.create({ ...body, retention_days: 100 + i }, null as unknown as string)),
    );
    expect(created.map((p) => p.version).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
    expect((await store.get('team-policy'))!.version).toBe(6);
    expect((await store.get('team-policy', 3))!.version).toBe(3);
    expect(await store.get('team-policy', 7)).toBeNull();
  });

  it('returns exactly the Policy fields, so digests are stable', async () => {
    const store = createPolicyStore(database.db);
    const created = await store.create({ ...body, name: 'shape', extra: 'ignored' } as typeof body, null as unknown as string);
    expect(Object.keys((await store.get('shape'))!).sort()).toEqual(Object.keys(builtInPolicy('default')!).sort());
    expect(await store.get('shape')).toEqual(created);
  });
});
