import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { createKnex } from '../../../db/create-knex.js';
import { migrationSource } from '../../../db/migrate.js';
import { migrations } from '../../../db/migrations/index.js';
import { withDatabase } from '../../../db/with-database.js';
import { cloneNamePrefix } from '../../support/test-database.js';

/** The migrations up to and including `last`, applied as db/migrate.ts applies them all. */
export async function migrateUpTo(db: Knex, last: string): Promise<void> {
  const applied = migrations.slice(0, migrations.findIndex((m) => m.name === last) + 1);
  await db.migrate.latest({ migrationSource: migrationSource(applied) });
}

/**
 * An empty database of its own for the enclosing `describe` (a migration test applies migrations
 * to it one by one), created before its tests and dropped after them: `db()` is its connection.
 */
export function useScratchDatabase(tag: string): { db: () => Knex } {
  const serverUrl = process.env.SHIPGATE_TEST_SERVER_URL!;
  const name = `${cloneNamePrefix(process.env.SHIPGATE_TEST_TEMPLATE!)}${tag}_${randomBytes(4).toString('hex')}`;
  let db: Knex | undefined;
  beforeAll(async () => {
    const admin = createKnex(serverUrl, 1);
    await admin.raw(`CREATE DATABASE ${name}`);
    await admin.destroy();
    db = createKnex(withDatabase(serverUrl, name), 2);
  });
  afterAll(async () => {
    await db?.destroy();
    const admin = createKnex(serverUrl, 1);
    await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.destroy();
  });
  return { db: () => db! };
}
