import { builtInPolicy } from '../../core/policies/built-in-policies.js';
import { createAccountStore } from '../../db/stores/accounts/postgres-account-store.js';
import { createPolicyStore } from '../../db/stores/policies/postgres-policy-store.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

let database: TestDatabase;
/** The user who creates the policies (a policy's author is a user of the service). */
let author: string;
beforeAll(async () => {
  database = await createTestDatabase();
  const user = { email: 'author@example.com', name: 'Author', passwordHash: 'not used here', role: 'OPERATOR' as const };
  author = (await createAccountStore(database.db).createUser(user, 'key-hash-not-used')).id;
});
afterAll(async () => {
  await database.drop();
});

const { version: _version, ...body } = { ...builtInPolicy('hipaa')!, name: 'team-policy' };

describe('policy store', () => {
  it('gives concurrent new versions of one name distinct, consecutive numbers', async () => {
    const store = createPolicyStore(database.db);
    const created = await Promise.all(Array.from({ length: 6 }, (_, i) => store.create({ ...body, retention_days: 100 + i }, author)));
    expect(created.map((p) => p.version).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
    expect((await store.get('team-policy'))!.version).toBe(6);
    expect((await store.get('team-policy', 3))!.version).toBe(3);
    expect(await store.get('team-policy', 7)).toBeNull();
  });

  it('returns exactly the Policy fields, so digests are stable', async () => {
    const store = createPolicyStore(database.db);
    const created = await store.create({ ...body, name: 'shape', extra: 'ignored' } as typeof body, author);
    expect(Object.keys((await store.get('shape'))!).sort()).toEqual(Object.keys(builtInPolicy('default')!).sort());
    expect(await store.get('shape')).toEqual(created);
  });
});
