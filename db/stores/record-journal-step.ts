import type { Knex } from 'knex';
import { sendSql } from '../send-sql.js';

// A step is recorded only while the execution has no verdict: a completed or failed run is
// certified over exactly its recorded entries. A cancelled one still takes the step in flight
// when it was cancelled (that step really happened; no execution certificate covers it).
const OPEN = `status NOT IN ('completed', 'failed')`;

/** The next transcript position of execution $1, for an insert into execution_messages. */
const NEXT_IDX = `coalesce((SELECT max(idx) FROM execution_messages WHERE execution_id = $1), -1) + 1`;

// One statement, so one round trip and atomic without BEGIN/COMMIT. The UPDATE locks the row
// (a concurrent cancel or finish is waited for and re-checked); status comes back either way.
// Its commit does not wait for the WAL flush (synchronous_commit off for this transaction only):
// what follows a turn before the next provider call is a tool call's write, whose commit waits
// for the flush of all WAL before it, the turn's included; a run ending instead ends with a
// flushing write too (finish). See ARCHITECTURE.md, "Sending SQL".
// $1 execution id, $2 cost in cents, $3 the assistant message.
const RECORD_TURN = `
WITH execution AS (
  UPDATE executions SET cost_cents = cost_cents + $2 WHERE id = $1 AND ${OPEN} RETURNING id, status
), message AS (
  INSERT INTO execution_messages (execution_id, idx, message) SELECT id, ${NEXT_IDX}, $3::jsonb FROM execution
)
SELECT coalesce((SELECT status FROM execution), (SELECT status FROM executions WHERE id = $1)) AS status,
  set_config('synchronous_commit', 'off', true) AS commit_mode`;

// The tool call's part of a step: the entry keyed by (execution_id, seq) feeds its answer,
// certificate and artifact, so a replayed seq inserts nothing at all. Reads the CTE `execution`
// (the execution, when it may still take steps) and writes the answer at position `answerIdx`.
// $1 execution id, then as JSON: $2 the entry, $3 the answer, $4 the certificate, $5 the artifact.
const toolCallParts = (answerIdx: string) => `
call AS (
  INSERT INTO tool_calls (execution_id, seq, call_id, tool, arguments, capability, verdict, reason, certificate_id, result_digest, output, duration_ms, created_at)
  SELECT execution.id, e.seq, e.call_id, e.tool, e.arguments, e.capability, e.verdict, e.reason, e.certificate_id, e.result_digest, e.output, e.duration_ms, e.created_at
  FROM execution, jsonb_populate_record(NULL::tool_calls, $2::jsonb) e
  ON CONFLICT (execution_id, seq) DO NOTHING
  RETURNING execution_id, seq
), answer AS (
  INSERT INTO execution_messages (execution_id, idx, message) SELECT execution_id, ${answerIdx}, $3::jsonb FROM call
), certificate AS (
  INSERT INTO certificates (id, execution_id, kind, theorem, plan_hash, verified_properties, prover, issued_at, digest, envelope)
  SELECT c.id, call.execution_id, c.kind, c.theorem, c.plan_hash, c.verified_properties, c.prover, c.issued_at, c.digest, c.envelope
  FROM call, jsonb_populate_record(NULL::certificates, $4::jsonb) c WHERE c.id IS NOT NULL
), artifact AS (
  INSERT INTO artifacts (execution_id, seq, kind, name, content, digest, approved_for_release)
  SELECT call.execution_id, call.seq, a.kind, a.name, a.content, a.digest, a.approved_for_release
  FROM call, jsonb_populate_record(NULL::artifacts, $5::jsonb) a WHERE a.kind IS NOT NULL
)`;

// One statement. FOR SHARE waits out a concurrent finish.
const RECORD_TOOL_CALL = `
WITH locked AS (
  SELECT id, status FROM executions WHERE id = $1 FOR SHARE
), execution AS (
  SELECT id FROM locked WHERE ${OPEN}
), ${toolCallParts(NEXT_IDX)}
SELECT (SELECT status FROM locked) AS status`;

// A turn and its first tool call in one statement (one round trip, one durable commit): the
// turn as RECORD_TURN, then the call as RECORD_TOOL_CALL, its answer right after the turn.
// $1-$5 as RECORD_TOOL_CALL, $6 the turn's cost in cents, $7 its assistant message.
const RECORD_TURN_AND_TOOL_CALL = `
WITH execution AS (
  UPDATE executions SET cost_cents = cost_cents + $6 WHERE id = $1 AND ${OPEN} RETURNING id, status
), turn AS (
  INSERT INTO execution_messages (execution_id, idx, message) SELECT id, ${NEXT_IDX}, $7::jsonb FROM execution RETURNING idx
), ${toolCallParts('(SELECT idx FROM turn) + 1')}
SELECT coalesce((SELECT status FROM execution), (SELECT status FROM executions WHERE id = $1)) AS status`;

const STATEMENTS = {
  turn: { name: 'journal_record_turn', text: RECORD_TURN },
  tool_call: { name: 'journal_record_tool_call', text: RECORD_TOOL_CALL },
  turn_and_tool_call: { name: 'journal_record_turn_and_tool_call', text: RECORD_TURN_AND_TOOL_CALL },
} as const;

/**
 * Records one step of a run in ONE round trip (a named prepared statement straight through pg;
 * see sendSql). Returns the execution's status (null: gone).
 */
export async function recordJournalStep(db: Knex, step: keyof typeof STATEMENTS, values: unknown[]): Promise<string | null> {
  const [row] = await sendSql<{ status: string | null }>(db, STATEMENTS[step], values);
  return row?.status ?? null;
}
