import type { Knex } from 'knex';

/**
 * The person who denied a held call, and the words they gave (docs/mcp-gateway.md, "Asking a
 * person"): `{id, name, reason}` as its certificate names them. Null for every other call, so
 * older entries (and their digests) are unchanged.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE tool_calls ADD COLUMN denied_by jsonb');
}
