import type { Knex } from 'knex';

/**
 * MCP sessions of the gateway (`Mcp-Session-Id`) in PostgreSQL, so any replica serves any of
 * them (docs/mcp-gateway.md, "Any replica serves any session"): each row is one MCP session of
 * an agent session, with what its `initialize` said (negotiated protocol version, the client's
 * info and capabilities), the agent key that opened it (if one did) and when it ended (`DELETE`).
 * The open MCP sessions of an agent session are counted against its cap under a lock on the
 * agent session's row, on every replica alike.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE TABLE mcp_sessions (
      id uuid PRIMARY KEY,
      execution_id uuid NOT NULL REFERENCES agent_sessions (execution_id) ON DELETE CASCADE,
      agent_key_id uuid REFERENCES agent_keys (id) ON DELETE SET NULL,
      protocol_version text NOT NULL,
      client_info jsonb NOT NULL,
      client_capabilities jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      ended_at timestamptz
    );
    CREATE INDEX mcp_sessions_open ON mcp_sessions (execution_id) WHERE ended_at IS NULL;
  `);
}
