import type { Knex } from 'knex';

/**
 * When each MCP session was last used (docs/mcp-gateway.md, "Any replica serves any session"):
 * an MCP session unused for MCP_SESSION_IDLE_MS (core/mcp/mcp-sessions.ts) has ended, so a
 * client that went away without its `DELETE` does not hold its agent session's slot for the rest
 * of that session's life. Written at most once a minute per session.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`ALTER TABLE mcp_sessions ADD COLUMN last_used_at timestamptz NOT NULL DEFAULT now()`);
}
