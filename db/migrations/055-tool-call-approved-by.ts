import type { Knex } from 'knex';

/**
 * The person who approved a held call (docs/mcp-gateway.md, "Asking a person"): `{id, name}` as
 * its certificate names them. Null for every other call, so older entries (and their digests)
 * are unchanged.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE tool_calls ADD COLUMN approved_by jsonb');
}
