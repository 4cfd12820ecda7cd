import type { Knex } from 'knex';

/**
 * Gateway calls held for a person's decision (docs/mcp-gateway.md, "Asking a person"): one row
 * per call whose capability the session's policy puts under `ask`, pending until an APPROVER or
 * ADMIN decides it, its deadline passes, or its session ends. The arguments are kept as the
 * agent sent them (approvers must see what they approve) with their digest.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE TABLE agent_call_approvals (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      execution_id uuid NOT NULL REFERENCES executions (id) ON DELETE CASCADE,
      seq integer NOT NULL,
      tool text NOT NULL,
      arguments jsonb NOT NULL,
      arguments_digest text NOT NULL,
      capability text NOT NULL,
      requested_at timestamptz NOT NULL,
      deadline timestamptz NOT NULL,
      decision text CHECK (decision IN ('approved', 'denied', 'timed_out', 'session_ended')),
      decided_by uuid REFERENCES users (id) ON DELETE SET NULL,
      decided_at timestamptz,
      reason text,
      CHECK ((decision IS NULL) = (decided_at IS NULL))
    );
    CREATE INDEX agent_call_approvals_pending ON agent_call_approvals (requested_at) WHERE decision IS NULL;
    CREATE INDEX agent_call_approvals_execution ON agent_call_approvals (execution_id);
  `);
}
