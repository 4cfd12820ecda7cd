import type { Knex } from 'knex';

/**
 * Coding-agent hooks (docs/agent-hooks.md): `hook_runs` binds an agent's own run (its session
 * id, per agent key and agent) to the agent session its first hook call opened, so one run is
 * one governed execution; `hook_calls` keeps each call a pre hook allowed, with what it was
 * allowed on, until its post hook completes it as an entry of `tool_calls` (same call_id).
 * One without such an entry is a call whose post never came.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE TABLE hook_runs (
      agent_key_id uuid NOT NULL REFERENCES agent_keys (id) ON DELETE CASCADE,
      agent text NOT NULL,
      cli_session_id text NOT NULL,
      execution_id uuid NOT NULL REFERENCES executions (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (agent_key_id, agent, cli_session_id)
    );
    CREATE TABLE hook_calls (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      execution_id uuid NOT NULL REFERENCES executions (id) ON DELETE CASCADE,
      call_id text NOT NULL,
      tool text NOT NULL,
      agent_id text,
      arguments jsonb NOT NULL,
      capability text NOT NULL,
      approved_by uuid REFERENCES users (id) ON DELETE SET NULL,
      approved_by_name text,
      requested_at timestamptz NOT NULL
    );
    CREATE INDEX hook_calls_execution ON hook_calls (execution_id, tool, requested_at);
    CREATE INDEX hook_calls_call_id ON hook_calls (execution_id, call_id);
  `);
}
