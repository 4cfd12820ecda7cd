import type { Knex } from 'knex';
import type { TurnStep } from '../../../core/agent/journal.js';
import { sendSql } from '../../send-sql.js';
import { ANSWER, artifact, certificate, stepValues, toolCall, turnPlaceholders, type ToolCallStep } from './journal-step-parameters.js';

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
// $1 execution id, then the turn's cost and assistant message (journal-step-parameters.ts).
const aloneTurn = turnPlaceholders(false);
const RECORD_TURN = `
WITH execution AS (
  UPDATE executions SET cost_cents = cost_cents + ${aloneTurn.cost} WHERE id = $1 AND ${OPEN} RETURNING id, status
), message AS (
  INSERT INTO execution_messages (execution_id, idx, message) SELECT id, ${NEXT_IDX}, ${aloneTurn.message} FROM execution
)
SELECT coalesce((SELECT status FROM execution), (SELECT status FROM executions WHERE id = $1)) AS status,
  set_config('synchronous_commit', 'off', true) AS commit_mode`;

// The tool call's part of a step: the entry keyed by (execution_id, seq) feeds its answer,
// certificate and artifact, so a replayed seq inserts nothing at all. Reads the CTE `execution`
// (the execution, when it may still take steps) and writes the answer at position `answerIdx`.
// $1 execution id, then the answer and the entry's, certificate's and artifact's columns.
const toolCallParts = (answerIdx: string) => `
call AS (
  INSERT INTO tool_calls (execution_id, ${toolCall.names})
  SELECT execution.id, ${toolCall.placeholders.join(', ')} FROM execution
  ON CONFLICT (execution_id, seq) DO NOTHING
  RETURNING execution_id, seq
), answer AS (
  INSERT INTO execution_messages (execution_id, idx, message) SELECT execution_id, ${answerIdx}, ${ANSWER} FROM call
), certificate AS (
  INSERT INTO tool_call_certificates (execution_id, seq, ${certificate.names})
  SELECT call.execution_id, call.seq, ${certificate.placeholders.join(', ')} FROM call WHERE ${certificate.placeholders[0]} IS NOT NULL
), artifact AS (
  INSERT INTO artifacts (execution_id, seq, ${artifact.names})
  SELECT call.execution_id, call.seq, ${artifact.placeholders.join(', ')} FROM call WHERE ${artifact.placeholders[0]} IS NOT NULL
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
// The parameters as RECORD_TOOL_CALL's, then the turn's cost and assistant message.
const carriedTurn = turnPlaceholders(true);
const RECORD_TURN_AND_TOOL_CALL = `
WITH execution AS (
  UPDATE executions SET cost_cents = cost_cents + ${carriedTurn.cost} WHERE id = $1 AND ${OPEN} RETURNING id, status
), turn AS (
  INSERT INTO execution_messages (execution_id, idx, message) SELECT id, ${NEXT_IDX}, ${carriedTurn.message} FROM execution RETURNING idx
), ${toolCallParts('(SELECT idx FROM turn) + 1')}
SELECT coalesce((SELECT status FROM execution), (SELECT status FROM executions WHERE id = $1)) AS status`;

// A gateway call (docs/mcp-gateway.md, "Any replica serves any session"): RECORD_TOOL_CALL,
// saying whether the call's seq was still free. A seq another call of the session took first
// (on any replica) inserts nothing: the caller reads the session again and signs the next seq.
const RECORD_GATEWAY_CALL = `${RECORD_TOOL_CALL}, EXISTS (SELECT 1 FROM call) AS recorded`;

const STATEMENTS = {
  turn: { name: 'journal_record_turn', text: RECORD_TURN },
  tool_call: { name: 'journal_record_tool_call', text: RECORD_TOOL_CALL },
  turn_and_tool_call: { name: 'journal_record_turn_and_tool_call', text: RECORD_TURN_AND_TOOL_CALL },
  gateway_call: { name: 'journal_record_gateway_call', text: RECORD_GATEWAY_CALL },
} as const;

/**
 * Records one step of a run in ONE round trip (a named prepared statement straight through pg;
 * see sendSql): a turn, a tool call, or a turn carried by its first tool call. Returns the
 * execution's status (null: gone).
 */
export async function recordJournalStep(
  db: Knex,
  executionId: string,
  step: { call: ToolCallStep; turn?: TurnStep } | { call?: undefined; turn: TurnStep },
): Promise<string | null> {
  const statement = step.call ? (step.turn ? STATEMENTS.turn_and_tool_call : STATEMENTS.tool_call) : STATEMENTS.turn;
  const [row] = await sendSql<{ status: string | null }>(db, statement, stepValues(executionId, step.call ?? null, step.turn ?? null));
  return row?.status ?? null;
}

/**
 * Records a gateway call's step in one round trip: `recorded` false when its seq was taken (the
 * status then says whether the session still takes steps), as RECORD_GATEWAY_CALL says.
 */
export async function recordGatewayCallStep(
  db: Knex,
  executionId: string,
  call: ToolCallStep,
): Promise<{ status: string | null; recorded: boolean }> {
  const [row] = await sendSql<{ status: string | null; recorded: boolean }>(
    db,
    STATEMENTS.gateway_call,
    stepValues(executionId, call, null),
  );
  return { status: row?.status ?? null, recorded: row?.recorded ?? false };
}
