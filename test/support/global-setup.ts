import { randomBytes } from 'node:crypto';
import { createKnex } from '../../db/create-knex.js';
import { migrateJobQueue } from '../../db/job-queue.js';
import { migrate } from '../../db/migrate.js';
import { startTemporaryPostgres, type EmbeddedDatabase } from '../../db/start-embedded-postgres.js';
import { withDatabase } from '../../db/with-database.js';

declare global {
  var __SHIPGATE_EMBEDDED__: EmbeddedDatabase | undefined;
}

/**
 * A real PostgreSQL for the suite: DATABASE_URL when set, else an embedded one. Builds one
 * migrated template database; every test file clones it (CREATE DATABASE ... TEMPLATE), so
 * files run in parallel on their own data.
 */
export default async function globalSetup(): Promise<void> {
  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    globalThis.__SHIPGATE_EMBEDDED__ = await startTemporaryPostgres('shipgate-test-');
    serverUrl = globalThis.__SHIPGATE_EMBEDDED__.url;
  }
  const template = `sg_template_${randomBytes(4).toString('hex')}`;
  const admin = createKnex(serverUrl, 1);
  await admin.raw(`CREATE DATABASE ${template}`);
  await admin.destroy();
  const templateUrl = withDatabase(serverUrl, template);
  const db = createKnex(templateUrl, 1);
  await migrate(db);
  await migrateJobQueue(db, templateUrl);
  await db.destroy();
  process.env.SHIPGATE_TEST_SERVER_URL = serverUrl;
  process.env.SHIPGATE_TEST_TEMPLATE = template;
}
