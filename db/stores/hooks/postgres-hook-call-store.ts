import type { Knex } from 'knex';
import type { HookCall, HookCallStore, NewHookCall } from '../../../core/hooks/hook-call.js';
import { sendSql } from '../../send-sql.js';
import { countHit } from '../accounts/postgres-rate-limiter.js';
import { callStateBy, toCallState, type CallStateRow } from '../mcp/postgres-agent-session-store.js';

export interface HookCallRow {
  id: string;
  execution_id: string;
  call_id: string;
  tool: string;
  agent_id: string | null;
  arguments: Record<string, unknown>;
  capability: string;
  approved_by: string | null;
  approved_by_name: string | null;
  requested_at: Date;
}

function toHookCall(row: HookCallRow): HookCall {
  return {
    id: row.id,
    execution_id: row.execution_id,
    call_id: row.call_id,
    tool: row.tool,
    agent_id: row.agent_id,
    arguments: row.arguments,
    capability: row.capability,
    approved_by: row.approved_by ? { id: row.approved_by, name: row.approved_by_name } : null,
    requested_at: row.requested_at.toISOString(),
  };
}

/**
 * Takes one of session `execution`'s calls while it has one left (and `unless`, over `from`,
 * holds): an UPDATE of its row, not a count, so concurrent opens see each other (migration 061).
 */
const takeCall = (execution: string, unless: { from: string; where: string } | null = null) =>
  `UPDATE agent_sessions a SET calls_taken = a.calls_taken + 1${unless ? ` FROM ${unless.from}` : ''}
    WHERE a.execution_id = ${execution} AND a.calls_taken < a.max_tool_calls${unless ? ` AND ${unless.where}` : ''}
    RETURNING a.execution_id`;

/** A call is open while no entry of its session carries its call_id (its post records that entry; migration 061 marks it). */
const NOT_COMPLETED = 'NOT h.completed';

// Its commit does not wait for the WAL flush (synchronous_commit off for this transaction only,
// as a run's turn: ARCHITECTURE.md, "Sending SQL"): the post's entry, a durable commit, flushes
// it with all WAL before it. Only a database crash within that window loses the row; that
// call's post then finds nothing to complete (docs/agent-hooks.md, "How it is built").
// The call takes one of its session's calls (migration 061) or is not opened: the row's lock
// orders concurrent opens of a session on every replica, and each sees the count the one before left.
const OPEN = {
  name: 'hook_call_open',
  text: `WITH taken AS (${takeCall('$1')}), opened AS (
      INSERT INTO hook_calls (execution_id, call_id, tool, agent_id, arguments, capability, approved_by, approved_by_name, requested_at)
      SELECT $1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9 FROM taken RETURNING id
    )
    SELECT id, set_config('synchronous_commit', 'off', true) AS commit_mode FROM opened`,
};
const BY_CALL_ID = {
  name: 'hook_call_by_call_id',
  text: `SELECT h.* FROM hook_calls h WHERE h.execution_id = $1 AND h.call_id = $2 AND ${NOT_COMPLETED}
    ORDER BY h.requested_at DESC LIMIT 1`,
};
const LATEST_OF_TOOL = {
  name: 'hook_call_latest_of_tool',
  text: `SELECT h.* FROM hook_calls h WHERE h.execution_id = $1 AND h.tool = $2 AND h.agent_id IS NOT DISTINCT FROM $3 AND ${NOT_COMPLETED}
    ORDER BY h.requested_at DESC LIMIT 1`,
};
const INCOMPLETE = {
  name: 'hook_calls_incomplete',
  text: `SELECT h.* FROM hook_calls h WHERE h.execution_id = $1 AND ${NOT_COMPLETED} ORDER BY h.requested_at, h.id`,
};
// On conflict the row is locked and its committed root returned (DO NOTHING would return nothing, and a SELECT in the
// same statement would not see a root another transaction committed meanwhile).
const ESTABLISH_ROOT = {
  name: 'hook_root_establish',
  text: `INSERT INTO hook_roots (execution_id, root) VALUES ($1, $2)
    ON CONFLICT (execution_id) DO UPDATE SET root = hook_roots.root RETURNING root`,
};
const BIND_RUN = {
  name: 'hook_run_bind',
  text: `WITH bound AS (
      INSERT INTO hook_runs (agent_key_id, agent, cli_session_id, execution_id) VALUES ($1, $2, $3, $4)
      ON CONFLICT DO NOTHING RETURNING execution_id
    )
    SELECT execution_id FROM bound
    UNION ALL SELECT execution_id FROM hook_runs WHERE agent_key_id = $1 AND agent = $2 AND cli_session_id = $3
    LIMIT 1`,
};

/** Statements that read a session's call state (postgres-agent-session-store.ts). */
function callStateStatements() {
  /** The session whose token hash is $1 with its call state, counting the request on bucket $2 (window $3 s) when found: one round trip. */
  const SESSION_BY_TOKEN_COUNTED = {
    name: 'hook_session_by_token_counted',
    text: `WITH state AS (${callStateBy('s.token_hash = $1')}), hit AS (${countHit('$2', '$3', 'FROM state')})
      SELECT state.*, hit.count AS hit_count, hit.retry AS hit_retry, NULL AS opened_ahead FROM state LEFT JOIN hit ON true`,
  };
  /**
   * SESSION_BY_TOKEN_COUNTED opening a pre's call ($4-$9: call id, tool, sub-agent, arguments,
   * capability, time) in the same round trip when the session is $10, open and within its call
   * limit, and the request within $11: a guard no laxer than the decision, which is
   * pre-tool-use.ts's (a call it does not allow is discarded). Its commit does not wait for the
   * flush, as OPEN's.
   */
  const SESSION_BY_TOKEN_OPENING = {
    name: 'hook_session_by_token_opening',
    text: `WITH state AS (${callStateBy('s.token_hash = $1')}), hit AS (${countHit('$2', '$3', 'FROM state')}),
      taken AS (${takeCall('$10', {
        from: 'state JOIN hit ON true',
        where: `state.execution_id = $10 AND state.status = 'running' AND state.expires_at > now() AND state.owner_active
          AND hit.count <= $11`,
      })}),
      opened AS (
        INSERT INTO hook_calls (execution_id, call_id, tool, agent_id, arguments, capability, approved_by, approved_by_name, requested_at)
        SELECT execution_id, $4, $5, $6, $7::jsonb, $8, NULL, NULL, $9 FROM taken
        RETURNING id
      )
      SELECT state.*, hit.count AS hit_count, hit.retry AS hit_retry, (SELECT id FROM opened) AS opened_ahead,
        set_config('synchronous_commit', 'off', true) AS commit_mode
      FROM state LEFT JOIN hit ON true`,
  };
  /** The call state of the session a key's run ($1, $2, $3) opened: one round trip. */
  const RUN_SESSION_STATE = {
    name: 'hook_run_session_state',
    text: callStateBy(
      's.execution_id = (SELECT execution_id FROM hook_runs WHERE agent_key_id = $1 AND agent = $2 AND cli_session_id = $3)',
    ),
  };
  return { SESSION_BY_TOKEN_COUNTED, SESSION_BY_TOKEN_OPENING, RUN_SESSION_STATE };
}

/** Removes a call opened ahead, giving back the call it took. */
const DISCARD = {
  name: 'hook_call_discard',
  text: `WITH gone AS (DELETE FROM hook_calls WHERE id = $1 RETURNING execution_id)
    UPDATE agent_sessions SET calls_taken = calls_taken - 1 WHERE execution_id = (SELECT execution_id FROM gone)`,
};

/** OPEN's parameters: the session, call id, tool, sub-agent, arguments, capability, approver and time. */
function openValues(call: NewHookCall): unknown[] {
  return [
    call.execution_id,
    call.call_id,
    call.tool,
    call.agent_id,
    JSON.stringify(call.arguments),
    call.capability,
    call.approved_by?.id ?? null,
    call.approved_by?.name ?? null,
    call.requested_at,
  ];
}

/** The session's allowed calls whose post never came, oldest first (also read with the execution record). */
export function incompleteHookCallRows(db: Knex, executionId: string): Promise<HookCallRow[]> {
  return sendSql<HookCallRow>(db, INCOMPLETE, [executionId]);
}

/** Hook calls and the runs of agent keys (db/migrations/053-hook-calls.ts). */
export function createHookCallStore(db: Knex): HookCallStore {
  // Built here, not when this module loads: the agent session store imports it through the execution store (a cycle).
  const { SESSION_BY_TOKEN_COUNTED, SESSION_BY_TOKEN_OPENING, RUN_SESSION_STATE } = callStateStatements();
  return {
    async open(call) {
      const [row] = await sendSql<{ id: string }>(db, OPEN, openValues(call));
      return row?.id ?? null;
    },
    async findOpen(executionId, tool, callId, agentId) {
      const [row] = callId
        ? await sendSql<HookCallRow>(db, BY_CALL_ID, [executionId, callId])
        : await sendSql<HookCallRow>(db, LATEST_OF_TOOL, [executionId, tool, agentId]);
      return row ? toHookCall(row) : null;
    },
    async incomplete(executionId) {
      return (await incompleteHookCallRows(db, executionId)).map(toHookCall);
    },
    async discard(id) {
      await sendSql(db, DISCARD, [id]);
    },
    async sessionByTokenCounted(tokenHash, bucket, windowSeconds, ahead) {
      type Row = CallStateRow & { hit_count: number; hit_retry: number; opened_ahead: string | null };
      const [row] = ahead
        ? await sendSql<Row>(db, SESSION_BY_TOKEN_OPENING, [
            tokenHash,
            bucket,
            windowSeconds,
            ...openValues(ahead.call).slice(1, 6),
            ahead.call.requested_at,
            ahead.call.execution_id,
            ahead.perMinute,
          ])
        : await sendSql<Row>(db, SESSION_BY_TOKEN_COUNTED, [tokenHash, bucket, windowSeconds]);
      return row ? { session: toCallState(row), hit: { count: row.hit_count, retry: row.hit_retry }, openedAhead: row.opened_ahead } : null;
    },
    async stateOfRun(agentKeyId, agent, cliSessionId) {
      const [row] = await sendSql<CallStateRow>(db, RUN_SESSION_STATE, [agentKeyId, agent, cliSessionId]);
      return row ? toCallState(row) : null;
    },
    async establishRoot(executionId, cwd) {
      const [row] = await sendSql<{ root: string }>(db, ESTABLISH_ROOT, [executionId, cwd]);
      return row.root;
    },
    async bindRun(agentKeyId, agent, cliSessionId, executionId) {
      const [row] = await sendSql<{ execution_id: string }>(db, BIND_RUN, [agentKeyId, agent, cliSessionId, executionId]);
      return row.execution_id;
    },
  };
}
