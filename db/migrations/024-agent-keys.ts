import type { Knex } from 'knex';

/**
 * Repository agent keys of the MCP gateway (docs/mcp-gateway.md): each MCP session opened with
 * one becomes a new agent session, which records the key that opened it. Keys are stored as
 * their SHA-256 only, like API keys.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE TABLE agent_keys (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name text NOT NULL,
      repo_root text NOT NULL,
      key_hash text NOT NULL UNIQUE,
      compliance_policy text NOT NULL,
      permissions jsonb,
      servers text[] NOT NULL,
      max_tool_calls integer,
      session_seconds integer NOT NULL,
      created_by uuid NOT NULL REFERENCES users (id),
      created_at timestamptz NOT NULL DEFAULT now(),
      revoked_at timestamptz
    );
    ALTER TABLE agent_sessions ADD COLUMN agent_key_id uuid REFERENCES agent_keys (id);
  `);
}
