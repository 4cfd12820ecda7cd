import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { createKnex } from '../../db/create-knex.js';
import { migrationSource } from '../../db/migrate.js';
import { migrations } from '../../db/migrations/index.js';
import { withDatabase } from '../../db/with-database.js';
import { cloneNamePrefix } from '../support/test-database.js';

/** The migrations up to and including `last`, applied as db/migrate.ts applies them all. */
async function migrateUpTo(db: Knex, last: string): Promise<void> {
  const applied = migrations.slice(0, migrations.findIndex((m) => m.name === last) + 1);
  await db.migrate.latest({ migrationSource: migrationSource(applied) });
}

describe('migration 060: check runs recorded with a future date are dated back to when they were recorded', () => {
  const serverUrl = process.env.SHIPGATE_TEST_SERVER_URL!;
  const name = `${cloneNamePrefix(process.env.SHIPGATE_TEST_TEMPLATE!)}m060_${randomBytes(4).toString('hex')}`;
  let db: Knex;
  beforeAll(async () => {
    const admin = createKnex(serverUrl, 1);
    await admin.raw(`CREATE DATABASE ${name}`);
    await admin.destroy();
    db = createKnex(withDatabase(serverUrl, name), 2);
  });
  afterAll(async () => {
    await db.destroy();
    const admin = createKnex(serverUrl, 1);
    await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.destroy();
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
