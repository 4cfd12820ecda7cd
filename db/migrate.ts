import type { Knex } from 'knex';
import { migrations } from './migrations/index.js';

/**
 * Forward-only migrations from a static list (no directory scan), so the same code runs
 * under tsx, jest and a bundled build.
 */
const source: Knex.MigrationSource<(typeof migrations)[number]> = {
  getMigrations: async () => migrations,
  getMigrationName: (m) => m.name,
  getMigration: async (m) => ({
    up: m.up,
    down: async () => {
      throw new Error('migrations are forward-only');
    },
  }),
};

export async function migrate(db: Knex): Promise<void> {
  await db.migrate.latest({ migrationSource: source });
}

/** True when every known migration has been applied (for /readyz). */
export async function migrationsApplied(db: Knex): Promise<boolean> {
  const [, pending] = (await db.migrate.list({ migrationSource: source })) as [unknown[], unknown[]];
  return pending.length === 0;
}
