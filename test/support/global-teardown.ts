import { createKnex } from '../../db/create-knex.js';
import { cloneNamePrefix } from './test-database.js';

export default async function globalTeardown(): Promise<void> {
  const serverUrl = process.env.SHIPGATE_TEST_SERVER_URL;
  const template = process.env.SHIPGATE_TEST_TEMPLATE;
  if (serverUrl && template && !globalThis.__SHIPGATE_EMBEDDED__) {
    const admin = createKnex(serverUrl, 1);
    const clones = await admin.raw(`SELECT datname FROM pg_database WHERE starts_with(datname, ?) OR datname = ?`, [
      cloneNamePrefix(template),
      template,
    ]);
    for (const { datname } of clones.rows as { datname: string }[]) await admin.raw(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    await admin.destroy();
  }
  await globalThis.__SHIPGATE_EMBEDDED__?.stop();
}
