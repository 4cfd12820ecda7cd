import { createRateLimiter } from '../../db/stores/accounts/postgres-rate-limiter.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

describe('rate-limit counters', () => {
  it('live in an unlogged table (no WAL flush per request) and still count and limit', async () => {
    const { rows } = await database.db.raw(`SELECT relpersistence FROM pg_class WHERE relname = 'rate_limits' AND relkind = 'r'`);
    expect(rows).toEqual([{ relpersistence: 'u' }]);
    const limiter = createRateLimiter(database.db);
    expect(await limiter.hit('key:a', 2, 60)).toBe(0);
    expect(await limiter.hit('key:a', 2, 60)).toBe(0);
    expect(await limiter.hit('key:a', 2, 60)).toBeGreaterThan(0);
  });
});
