import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { createKnex } from '../../db/create-knex.js';
import { migrate } from '../../db/migrate.js';
import { startTemporaryPostgres } from '../../db/start-embedded-postgres.js';
import { withDatabase } from '../../db/with-database.js';

export interface BenchDatabase {
  url: string;
  db: Knex;
  close(): Promise<void>;
}

/**
 * A fresh, migrated database for one bench run: a new database on DATABASE_URL's server
 * (dropped afterwards), else an embedded PostgreSQL in a temporary directory.
 */
export async function openBenchDatabase(): Promise<BenchDatabase> {
  let serverUrl = process.env.DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!serverUrl) {
    const embedded = await startTemporaryPostgres('shipgate-bench-');
    serverUrl = embedded.url;
    stopEmbedded = embedded.stop;
  }
  const name = `sg_bench_${randomBytes(4).toString('hex')}`;
  const admin = createKnex(serverUrl, 1);
  await admin.raw(`CREATE DATABASE ${name}`);
  await admin.destroy();
  const url = withDatabase(serverUrl, name);
  const db = createKnex(url, 4);
  await migrate(db);
  return {
    url,
    db,
    async close() {
      await db.destroy();
      const a = createKnex(serverUrl, 1);
      await a.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.destroy();
      await stopEmbedded?.();
    },
  };
}
