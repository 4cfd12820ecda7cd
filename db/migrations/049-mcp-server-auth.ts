import type { Knex } from 'knex';

/**
 * How shipgate authenticates to an upstream MCP server beyond its sealed headers
 * (docs/mcp-gateway.md, "Least-privilege upstream credentials"): `{"github_app": {"permissions":
 * {...}}}` mints a token per agent session, limited to its repository and these permissions. Not
 * a secret (permission names and levels), so stored in clear; null for upstreams registered before.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`ALTER TABLE mcp_servers ADD COLUMN auth jsonb`);
}
