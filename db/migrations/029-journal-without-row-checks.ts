import type { Knex } from 'knex';

/**
 * A run's journal rows stop re-checking their execution row by row (ARCHITECTURE.md, "Sending
 * SQL"; docs/benchmarks.md, "What moved the figures"). A foreign key is a trigger: each governed
 * tool call inserted four rows that point at their execution (the turn and the answer in
 * `execution_messages`, the call in `tool_calls`, its certificate in `certificates`), so four
 * more queries per call looked up and share-locked the execution row the same statement had just
 * updated or locked, and each update of a turn's cost visited the referencing keys' triggers.
 * Measured on the embedded PostgreSQL (built -Os): about a fifth of the tool call statement's
 * executor time.
 *
 * What the keys guaranteed still holds by construction: every journal write inserts only rows
 * selected from its execution row, locked in the same statement (record-journal-step.ts) or
 * transaction (the execution certificate, written by `finish` after updating the row), until its
 * commit, so the row exists and cannot be deleted meanwhile. No statement deletes an execution
 * (ON DELETE CASCADE never ran); the keys of `agent_sessions` and `workflow_stages`, written once
 * per session or stage, stay.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    ALTER TABLE execution_messages DROP CONSTRAINT execution_messages_execution_id_foreign;
    ALTER TABLE tool_calls DROP CONSTRAINT tool_calls_execution_id_foreign;
    ALTER TABLE certificates DROP CONSTRAINT certificates_execution_id_foreign;
    ALTER TABLE artifacts DROP CONSTRAINT artifacts_execution_id_foreign;
  `);
}
