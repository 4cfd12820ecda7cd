import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { createKnex } from '../../db/create-knex.js';
import { migrate } from '../../db/migrate.js';
import { startEmbeddedPostgres } from '../../db/start-embedded-postgres.js';

export interface BenchDatabase {
  url: string;
  db: Knex;
  close(): Promise<void>;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * A fresh, migrated database for one bench run: a new database on DATABASE_URL's server
 * (dropped afterwards), else an embedded PostgreSQL in a temporary directory.
 */
export async function openBenchDatabase(): Promise<BenchDatabase> {
  let serverUrl = process.env.DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | undefined;
  let tmp: string | undefined;
  if (!serverUrl) {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'shipgate-bench-'));
    fs.chmodSync(tmp, 0o755);
    const embedded = await startEmbeddedPostgres(tmp);
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
      if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}
