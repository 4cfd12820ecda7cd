import type { Knex } from 'knex';
import { migrateUpTo, useScratchDatabase } from './support/scratch-database.js';

describe('migration 060: check runs recorded with a future date are dated back to when they were recorded', () => {
  const scratch = useScratchDatabase('m060');
  let db: Knex;
  beforeAll(() => {
    db = scratch.db();
  });

  it('moves a 2099 check run to its created_at and leaves a past one alone', async () => {
    await migrateUpTo(db, '059-hook-roots');
    const created = new Date('2026-11-01T10:00:00Z');
    const row = (name: string, source: string, producedAt: string) => ({
      repo_root: 'acme/api',
      commit_sha: 'a'.repeat(40),
      source,
      kind: source,
      name,
      status: 'completed',
      conclusion: 'success',
      produced_at: new Date(producedAt),
      created_at: created,
    });
    await db('evidence').insert([row('future', 'check_run', '2099-01-01T00:00:00Z'), row('past', 'check_run', '2026-10-31T09:00:00Z')]);
    await migrateUpTo(db, '060-future-dated-check-runs');
    const dates = await db('evidence').select('name', 'produced_at').orderBy('name');
    expect(dates.map((r) => [r.name, (r.produced_at as Date).toISOString()])).toEqual([
      ['future', created.toISOString()],
      ['past', '2026-10-31T09:00:00.000Z'],
    ]);
  });
});
