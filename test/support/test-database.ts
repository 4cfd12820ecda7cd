import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { createKnex } from '../../db/create-knex.js';
import { withDatabase } from '../../db/with-database.js';

export interface TestDatabase {
  url: string;
  db: Knex;
  drop(): Promise<void>;
}

/**
 * Clones carry their run's template suffix, so one run's teardown never drops the databases
 * of another run sharing the server (several engineers, or CI, on one machine).
 */
export function cloneNamePrefix(template: string): string {
  return `sg_t_${template.replace(/^sg_template_/, '')}_`;
}

/** A fresh, migrated database of its own (a clone of the suite's template). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.SHIPGATE_TEST_SERVER_URL;
  const template = process.env.SHIPGATE_TEST_TEMPLATE;
  if (!serverUrl || !template) throw new Error('test database server not set up (jest globalSetup)');
  const name = `${cloneNamePrefix(template)}${randomBytes(6).toString('hex')}`;
  const admin = createKnex(serverUrl, 1);
  try {
    // CREATE DATABASE ... TEMPLATE fails while another session is connected to the template.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.raw(`CREATE DATABASE ${name} TEMPLATE ${template}`);
        break;
      } catch (error) {
        if (attempt > 50 || !/being accessed by other users/.test((error as Error).message)) throw error;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } finally {
    await admin.destroy();
  }
  const url = withDatabase(serverUrl, name);
  const db = createKnex(url, 5);
  return {
    url,
    db,
    async drop() {
      await db.destroy();
      const admin = createKnex(serverUrl, 1);
      try {
        // Connections still closing (a stopped job worker's pool) are let end on their own first:
        // terminated, they raise an error on a pool nobody listens to any more, which fails
        // whichever test of the file runs next. Only what is still connected after that is forced.
        for (let attempt = 0; attempt < 20; attempt++) {
          try {
            await admin.raw(`DROP DATABASE IF EXISTS ${name}`);
            return;
          } catch (error) {
            if (!/being accessed by other users/.test((error as Error).message)) throw error;
            await new Promise((r) => setTimeout(r, 100));
          }
        }
        await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await admin.destroy();
      }
    },
  };
}
