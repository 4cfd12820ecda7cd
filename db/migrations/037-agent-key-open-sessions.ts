import type { Knex } from 'knex';

/**
 * An agent key's `initialize` counts the key's open sessions under a lock on the key before it
 * opens one (docs/mcp-gateway.md, "Limits"): this index finds the key's sessions not yet expired
 * without reading every session the key ever opened.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('CREATE INDEX agent_sessions_of_key ON agent_sessions (agent_key_id, expires_at) WHERE agent_key_id IS NOT NULL');
}
