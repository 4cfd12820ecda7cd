import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { createKnex } from '../db/create-knex.js';
import { migrateJobQueue } from '../db/job-queue.js';
import { migrate } from '../db/migrate.js';
import { startEmbeddedPostgres } from '../db/start-embedded-postgres.js';
import type { Config } from '../core/config.js';

export interface OpenDatabase {
  db: Knex;
  url: string;
  /** Which database this is, for the start-up banner (never the URL: it may hold a password). */
  description: string[];
  close(): Promise<void>;
}

/** DATABASE_URL when set, else an embedded PostgreSQL in the data dir; migrated either way. */
export async function openDatabase(config: Config, logger: Logger, runMigrations = true): Promise<OpenDatabase> {
  const embedded = config.databaseUrl
    ? undefined
    : await startEmbeddedPostgres(config.dataDir, (line) => logger.debug({ postgres: line.trim() }, 'embedded postgres'));
  const url = config.databaseUrl ?? embedded!.url;
  const db = createKnex(url, undefined, logger);
  try {
    if (runMigrations) {
      await migrate(db);
      await migrateJobQueue(db, url, logger);
    }
  } catch (error) {
    await db.destroy();
    await embedded?.stop();
    throw error;
  }
  if (embedded)
    logger.info(
      // Where to connect with psql for maintenance (docs/operations.md, "Embedded PostgreSQL"); the file's path, never its content.
      {
        data_dir: config.dataDir,
        cluster_dir: embedded.clusterDir,
        port: embedded.port,
        password_file: embedded.passwordFile,
        notes: embedded.notes,
      },
      'embedded PostgreSQL started',
    );
  return {
    db,
    url,
    description: embedded ? [`embedded PostgreSQL in ${config.dataDir}`, ...embedded.notes] : ['DATABASE_URL'],
    async close() {
      await db.destroy();
      await embedded?.stop();
    },
  };
}
