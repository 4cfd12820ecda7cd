import type { Knex } from 'knex';

/**
 * Agent sessions opened by a GitHub Actions workflow with its OIDC token record that workflow run,
 * as evidence does (docs/mcp-gateway.md, "Sessions opened by a GitHub Actions workflow").
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE agent_sessions ADD COLUMN workflow_run jsonb');
}
