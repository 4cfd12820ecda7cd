import type { Knex } from 'knex';

/**
 * Failed logins are counted per client, not per account (core/accounts/login-throttle.ts): a
 * stranger's failures on an e-mail slow down the stranger's address, never the owner's. Rows from
 * before have no client and are counted for nobody; they are pruned within a day. The index on
 * (email, failed_at) served the per-account count, which is gone.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    ALTER TABLE login_failures ADD COLUMN client text;
    DROP INDEX login_failures_email_failed_at_index;
    CREATE INDEX login_failures_client ON login_failures (client, failed_at);
  `);
}
