import { randomBytes } from 'node:crypto';
import { createKnex } from '../../db/create-knex.js';
import { migrate, migrationsApplied } from '../../db/migrate.js';
import { withDatabase } from '../../db/with-database.js';
import { cloneNamePrefix } from '../support/test-database.js';

describe('migrations on a fresh database', () => {
  it('replicas starting together all succeed: the runs are serialised, not raced', async () => {
    const serverUrl = process.env.SHIPGATE_TEST_SERVER_URL!;
    const name = `${cloneNamePrefix(process.env.SHIPGATE_TEST_TEMPLATE!)}fresh_${randomBytes(4).toString('hex')}`;
    const admin = createKnex(serverUrl, 1);
    await admin.raw(`CREATE DATABASE ${name}`);
    // One pool each, as separate processes have; one connection each, as the test setup uses.
    const replicas = Array.from({ length: 4 }, () => createKnex(withDatabase(serverUrl, name), 1));
    try {
      const results = await Promise.allSettled(replicas.map((db) => migrate(db)));
      expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : r.status))).toEqual(Array(4).fill('fulfilled'));
      expect(await migrationsApplied(replicas[0])).toBe(true);
    } finally {
      await Promise.all(replicas.map((db) => db.destroy()));
      await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.destroy();
    }
  });
});
