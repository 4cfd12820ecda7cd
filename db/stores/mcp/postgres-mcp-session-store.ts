import type { Knex } from 'knex';
import { MCP_SESSION_IDLE_MS, type McpSessionRecord, type McpSessionStore } from '../../../core/mcp/mcp-sessions.js';
import { requireMcpSessionRoom } from '../../../core/mcp/mcp-session-limits.js';
import type { McpSessionRow } from '../../tables.js';
import { sendSql } from '../../send-sql.js';
import { countHit } from '../accounts/postgres-rate-limiter.js';
import { callStateBy, toCallState, type CallStateRow } from './postgres-agent-session-store.js';

/** An MCP session's row with its agent session's call state: every request on every replica reads this, one round trip. */
const READ_STATE = callStateBy(
  'm.id = $1',
  `m.id AS mcp_id, m.agent_key_id AS mcp_agent_key_id, m.protocol_version, m.client_info, m.client_capabilities, m.ended_at, m.last_used_at, `,
  'mcp_sessions m JOIN agent_sessions s ON s.execution_id = m.execution_id',
);
const STATE = { name: 'mcp_session_state', text: READ_STATE };
/** The same, counting the request against bucket $3 (window $4 s) when $2 is the agent session's token hash. */
const STATE_AND_HIT = {
  name: 'mcp_session_state_and_hit',
  text: `WITH state AS (${READ_STATE}), hit AS (${countHit('$3', '$4', 'FROM state WHERE state.token_hash = $2')})
    SELECT state.*, hit.count AS hit_count, hit.retry AS hit_retry FROM state LEFT JOIN hit ON true`,
};

/** Serialises the opening of one agent session's MCP sessions across replicas (the count below then sees every one before). */
const LOCK_AGENT_SESSION = {
  name: 'mcp_lock_agent_session',
  text: 'SELECT 1 FROM agent_sessions WHERE execution_id = $1 FOR NO KEY UPDATE',
};
const OPEN_OF_SESSION = {
  name: 'mcp_sessions_open_of',
  text: `SELECT count(*)::int AS open FROM mcp_sessions
    WHERE execution_id = $1 AND ended_at IS NULL AND last_used_at > now() - make_interval(secs => $2::int)`,
};
const USED = { name: 'mcp_session_used', text: 'UPDATE mcp_sessions SET last_used_at = now() WHERE id = $1' };
const END = { name: 'mcp_session_end', text: 'UPDATE mcp_sessions SET ended_at = now() WHERE id = $1 AND ended_at IS NULL RETURNING id' };
const STILL_OPEN = {
  name: 'mcp_sessions_still_open',
  text: `SELECT m.id FROM mcp_sessions m JOIN agent_sessions s ON s.execution_id = m.execution_id JOIN executions e ON e.id = m.execution_id
    WHERE m.id = ANY ($1::uuid[]) AND m.ended_at IS NULL AND e.status = 'running' AND s.expires_at > $2
      AND m.last_used_at > $2::timestamptz - make_interval(secs => $3::int)`,
};

type StateRow = CallStateRow &
  Pick<McpSessionRow, 'protocol_version' | 'client_info' | 'client_capabilities' | 'ended_at' | 'last_used_at'> & {
    mcp_id: string;
    mcp_agent_key_id: string | null;
    hit_count?: number | null;
    hit_retry?: number | null;
  };

/** MCP sessions in PostgreSQL (migration 051), beside the agent sessions they belong to. */
export function createMcpSessionStore(db: Knex): McpSessionStore {
  return {
    async open(record, expiresAt, maxOpen) {
      await db.transaction(async (trx) => {
        await sendSql(trx, LOCK_AGENT_SESSION, [record.agent_session_id]);
        const [{ open }] = await sendSql<{ open: number }>(trx, OPEN_OF_SESSION, [record.agent_session_id, MCP_SESSION_IDLE_MS / 1000]);
        requireMcpSessionRoom('agent session', { open, secondsToNextExpiry: (Date.parse(expiresAt) - Date.now()) / 1000 }, maxOpen);
        await trx<McpSessionRow>('mcp_sessions').insert({
          id: record.id,
          execution_id: record.agent_session_id,
          agent_key_id: record.agent_key_id,
          protocol_version: record.protocol_version,
          client_info: record.client_info,
          client_capabilities: record.client_capabilities,
        });
      });
    },
    async state(id, hit) {
      const [row] = await sendSql<StateRow>(
        db,
        hit ? STATE_AND_HIT : STATE,
        hit ? [id, hit.tokenHash, hit.bucket, hit.windowSeconds] : [id],
      );
      if (!row) return null;
      const mcp: McpSessionRecord = {
        id: row.mcp_id,
        agent_session_id: row.execution_id,
        agent_key_id: row.mcp_agent_key_id,
        protocol_version: row.protocol_version,
        client_info: row.client_info,
        client_capabilities: row.client_capabilities,
        ended_at: row.ended_at ? row.ended_at.toISOString() : null,
        last_used_at: row.last_used_at.toISOString(),
      };
      const counted = row.hit_count != null ? { hit: { count: row.hit_count, retry: row.hit_retry ?? 0 } } : {};
      return { mcp, session: toCallState(row), sessionTokenHash: row.token_hash, ...counted };
    },
    async used(id) {
      await sendSql(db, USED, [id]);
    },
    async end(id) {
      return (await sendSql(db, END, [id])).length > 0;
    },
    async ended(ids, now) {
      if (ids.length === 0) return [];
      const open = new Set((await sendSql<{ id: string }>(db, STILL_OPEN, [ids, now, MCP_SESSION_IDLE_MS / 1000])).map((row) => row.id));
      return ids.filter((id) => !open.has(id));
    },
  };
}
