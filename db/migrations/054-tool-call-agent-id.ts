import type { Knex } from 'knex';

/**
 * The sub-agent that made a coding agent's tool call (Claude Code's `agent_id`; docs/agent-hooks.md,
 * "Records"). Null for every other call, so older entries (and their digests) are unchanged.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE tool_calls ADD COLUMN agent_id text');
}
