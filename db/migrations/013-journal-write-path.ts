import type { Knex } from 'knex';

/**
 * The journal's write of a tool call (ARCHITECTURE.md, "Sending SQL"), each of which stores a
 * certificate:
 * - `shipgate_text_sha256` gets a fixed search_path. Besides pinning what the function's body
 *   resolves to, a function with its own settings is never inlined, and inlining is what made
 *   every INSERT into `certificates` parse the function's body again while preparing the
 *   generated column's expression (it is only computed for execution certificates).
 * - `certificates_digest_index` goes: no statement looks a certificate up by its digest (an audit
 *   package verifies digests from the package itself), and each tool call paid for its upkeep.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    ALTER FUNCTION shipgate_text_sha256(text) SET search_path = pg_catalog;
    DROP INDEX certificates_digest_index;
  `);
}
