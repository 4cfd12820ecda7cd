import type { Knex } from 'knex';
import { migrationsApplied } from './migrate.js';
import { sendSql } from './send-sql.js';

/** /readyz's question (api/system-routes.ts): does the database answer, with every migration applied? */
export function databaseReadiness(db: Knex) {
  return {
    async migrationsApplied(): Promise<boolean> {
      // A plain statement first: an unreachable database is 503 "Database unavailable." from sendSql's translation.
      await sendSql(db, 'SELECT 1');
      return migrationsApplied(db);
    },
  };
}
