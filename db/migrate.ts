import type { Knex } from 'knex';
import pg from 'pg';
import { migrations, type Migration } from './migrations/index.js';

/**
 * Forward-only migrations from a static list (no directory scan), so the same code runs
 * under tsx, jest and a bundled build. A test may apply a prefix of the list to build an older
 * schema (test/db/tool-call-certificates-migration.test.ts).
 */
export function migrationSource(list: readonly Migration[]): Knex.MigrationSource<Migration> {
  return {
    getMigrations: async () => [...list],
    getMigrationName: (m) => m.name,
    getMigration: async (m) => ({
      up: m.up,
      down: async () => {
        throw new Error('migrations are forward-only');
      },
    }),
  };
}

const source = migrationSource(migrations);

const MIGRATION_LOCK = 7_140_003;

/**
 * Applies pending migrations. Replicas starting together on a fresh database would race knex
 * (both create its bookkeeping tables, or one finds them locked and fails), so the run is
 * serialised with a PostgreSQL advisory lock held by a session of its own: the others wait,
 * then find nothing left to do. (The session is separate because `db`'s pool may hold one
 * connection, which knex needs.)
 */
export async function migrate(db: Knex): Promise<void> {
  const session = new pg.Client(db.client.config.connection as pg.ClientConfig | string);
  session.on('error', () => {}); // a dropped session releases the lock; the migration itself reports the failure
  await session.connect();
  try {
    await session.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await db.migrate.latest({ migrationSource: source });
  } finally {
    await session.end().catch(() => {});
  }
}

/** True when every known migration has been applied (for /readyz). */
export async function migrationsApplied(db: Knex): Promise<boolean> {
  const [, pending] = (await db.migrate.list({ migrationSource: source })) as [unknown[], unknown[]];
  return pending.length === 0;
}
