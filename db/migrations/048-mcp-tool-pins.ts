import type { Knex } from 'knex';

/**
 * Pinned tool definitions of the upstream MCP servers (docs/mcp-gateway.md, "Pinned tool
 * definitions"): per server and tool, the definition an ADMIN approved (or the first one listed)
 * and the one listed last, with their SHA-256 digests; a tool's state follows from them. A
 * server's `tools_pinned_at` says its first listing happened: until then (servers registered
 * before this migration, or whose upstream was unreachable at registration) the next listing pins
 * every tool it lists (trust on first use).
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    ALTER TABLE mcp_servers ADD COLUMN tools_pinned_at timestamptz;
    CREATE TABLE mcp_tool_pins (
      server_name text NOT NULL REFERENCES mcp_servers (name) ON DELETE CASCADE,
      tool text NOT NULL,
      pinned_definition jsonb,
      pinned_digest text,
      current_definition jsonb NOT NULL,
      current_digest text NOT NULL,
      rejected_digest text,
      changed_at timestamptz NOT NULL DEFAULT now(),
      decided_by uuid REFERENCES users (id) ON DELETE SET NULL,
      decided_at timestamptz,
      PRIMARY KEY (server_name, tool),
      CHECK ((pinned_definition IS NULL) = (pinned_digest IS NULL))
    );
  `);
}
