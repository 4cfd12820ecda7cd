import type { Knex } from 'knex';

/**
 * The upstream MCP servers the gateway forwards to (docs/mcp-gateway.md). Headers (the
 * upstream's own credentials) are stored sealed; their names are kept apart so a listing
 * never has to open them.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE TABLE mcp_servers (
      name text PRIMARY KEY CHECK (name ~ '^[a-z0-9-]{1,40}$'),
      url text NOT NULL,
      headers_ciphertext text,
      header_names text[] NOT NULL DEFAULT '{}',
      tools jsonb,
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
  `);
}
