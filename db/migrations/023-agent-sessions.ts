import type { Knex } from 'knex';

/**
 * Governed agent sessions of the MCP gateway (docs/mcp-gateway.md). A session IS an execution
 * (`kind = 'agent_session'`, keyed by the execution's id); the agent's own model is not known
 * to shipgate, so such an execution has no provider or model. The session token is stored as
 * its SHA-256 only, like API keys.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    ALTER TABLE executions
      ADD COLUMN kind text NOT NULL DEFAULT 'task' CHECK (kind IN ('task', 'agent_session')),
      ALTER COLUMN provider DROP NOT NULL,
      ALTER COLUMN model DROP NOT NULL;
    CREATE TABLE agent_sessions (
      execution_id uuid PRIMARY KEY REFERENCES executions (id) ON DELETE CASCADE,
      token_hash text NOT NULL UNIQUE,
      servers text[] NOT NULL,
      max_tool_calls integer NOT NULL,
      branch text,
      expires_at timestamptz NOT NULL
    );
  `);
}
