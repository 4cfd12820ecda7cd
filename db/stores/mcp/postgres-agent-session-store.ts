import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { ExecutionStatus } from '../../../core/executions/execution.js';
import type { AgentSession, AgentSessionCallState, AgentSessionStore } from '../../../core/mcp/agent-session.js';
import { requireMcpSessionRoom } from '../../../core/mcp/mcp-session-limits.js';
import { WORKFLOW_SESSION_OWNER } from '../../../core/mcp/workflow-session.js';
import type { AgentSessionRow, UserRow } from '../../tables.js';
import { enqueueReplacing } from '../../job-queue.js';
import { sendSql } from '../../send-sql.js';
import { executionInsertValues, loadExecution } from '../executions/postgres-execution-store.js';

/**
 * A session with its state for a gateway request, in one round trip (by id, or by token hash):
 * the session's row and status, whether its owner is active, its last tool call's seq (the primary key's last entry), its last
 * certificate's digest (its execution certificate once closed, else its last tool call's), and
 * its upstream registrations' names and creation times. `also` adds columns and `from` joins
 * another table to `agent_sessions s` (an MCP session's row: postgres-mcp-session-store.ts).
 */
export const callStateBy = (
  where: string,
  also = '',
  from = 'agent_sessions s',
) => `SELECT ${also}s.*, e.owner_id, u.active AS owner_active, e.status, e.repo_root,
    coalesce((SELECT max(seq) FROM tool_calls WHERE execution_id = e.id), 0)::int AS last_seq,
    coalesce((SELECT digest FROM certificates WHERE execution_id = e.id ORDER BY ordinal DESC LIMIT 1),
      (SELECT digest FROM tool_call_certificates WHERE execution_id = e.id ORDER BY seq DESC LIMIT 1)) AS last_certificate_digest,
    coalesce((SELECT string_agg(m.name || '@' || m.created_at::text, ',' ORDER BY m.name) FROM mcp_servers m
      WHERE m.name = ANY (s.servers)), '') AS servers_version
  FROM ${from} JOIN executions e ON e.id = s.execution_id JOIN users u ON u.id = e.owner_id WHERE ${where}`;
const CALL_STATE_BY_ID = { name: 'agent_session_call_state', text: callStateBy('s.execution_id = $1') };
const CALL_STATE_BY_TOKEN = { name: 'agent_session_call_state_by_token', text: callStateBy('s.token_hash = $1') };

/**
 * Serialises the opening of an agent key's sessions, on every replica: the key's row is locked
 * until the transaction that inserts the new session commits, so each count below sees every
 * session opened before it.
 */
const LOCK_AGENT_KEY = { name: 'agent_key_lock', text: 'SELECT id FROM agent_keys WHERE id = $1 FOR NO KEY UPDATE' };
/** The key's sessions still open (running, not expired), and the seconds until the first of them expires. */
const OPEN_OF_KEY = {
  name: 'agent_key_open_sessions',
  text: `SELECT count(*)::int AS open, ceil(extract(epoch FROM min(s.expires_at) - now()))::int AS seconds_to_next_expiry
    FROM agent_sessions s JOIN executions e ON e.id = s.execution_id
    WHERE s.agent_key_id = $1 AND s.expires_at > now() AND e.status = 'running'`,
};

export type CallStateRow = SessionJoin & { last_seq: number; last_certificate_digest: string | null; servers_version: string };

export function toCallState(row: CallStateRow): AgentSessionCallState {
  return {
    ...toSession(row),
    next_seq: row.last_seq + 1,
    calls_taken: row.calls_taken,
    last_certificate_digest: row.last_certificate_digest,
    servers_version: row.servers_version,
  };
}

type SessionJoin = AgentSessionRow & { owner_id: string; owner_active: boolean; status: string; repo_root: string | null };

function toSession(row: SessionJoin): AgentSession {
  return {
    id: row.execution_id,
    owner_id: row.owner_id,
    owner_active: row.owner_active,
    status: row.status as ExecutionStatus,
    repo_root: row.repo_root,
    branch: row.branch,
    servers: row.servers,
    max_tool_calls: row.max_tool_calls,
    expires_at: row.expires_at.toISOString(),
  };
}

/**
 * The account owning sessions opened by workflows, created on first use (a row made by a
 * migration would count as an installation's first user). Its password hash matches no password.
 */
async function ensureWorkflowSessionOwner(trx: Knex.Transaction): Promise<void> {
  const { id, email, name, role } = WORKFLOW_SESSION_OWNER;
  await trx<UserRow>('users').insert({ id, email, name, role, password_hash: '!', active: false }).onConflict('id').ignore();
}

/** Agent sessions in PostgreSQL: an `agent_sessions` row beside its execution (docs/mcp-gateway.md). */
export function createAgentSessionStore(db: Knex, secretKey: Buffer): AgentSessionStore {
  const sessions = () =>
    db<AgentSessionRow>('agent_sessions')
      .join('executions', 'executions.id', 'agent_sessions.execution_id')
      .join('users', 'users.id', 'executions.owner_id')
      .select<SessionJoin[]>(
        'agent_sessions.*',
        'executions.owner_id',
        'users.active as owner_active',
        'executions.status',
        'executions.repo_root',
      );
  return {
    async open(session) {
      const id = randomUUID();
      await db.transaction(async (trx) => {
        if (session.agent_key) {
          await sendSql(trx, LOCK_AGENT_KEY, [session.agent_key.id]);
          const [held] = await sendSql<{ open: number; seconds_to_next_expiry: number | null }>(trx, OPEN_OF_KEY, [session.agent_key.id]);
          requireMcpSessionRoom(
            'agent key',
            { open: held.open, secondsToNextExpiry: held.seconds_to_next_expiry },
            session.agent_key.max_open,
          );
        }
        if (session.workflow_run) await ensureWorkflowSessionOwner(trx);
        await trx('executions').insert({
          ...executionInsertValues(id, session.execution, secretKey),
          kind: 'agent_session',
          status: 'running',
          started_at: trx.fn.now(),
        });
        await trx<AgentSessionRow>('agent_sessions').insert({
          execution_id: id,
          token_hash: session.token_hash,
          servers: session.servers,
          max_tool_calls: session.max_tool_calls,
          branch: session.branch,
          expires_at: session.expires_at,
          agent_key_id: session.agent_key?.id ?? null,
          workflow_run: session.workflow_run,
        });
      });
      const execution = await loadExecution(db, id);
      if (!execution) throw new Error(`Agent session ${id} vanished after it was opened.`);
      return execution;
    },
    async get(id) {
      const row = await sessions().where('agent_sessions.execution_id', id).first();
      return row ? toSession(row) : null;
    },
    async byTokenHash(tokenHash) {
      const row = await sessions().where('agent_sessions.token_hash', tokenHash).first();
      return row ? toSession(row) : null;
    },
    async callState(id) {
      const [row] = await sendSql<CallStateRow>(db, CALL_STATE_BY_ID, [id]);
      return row ? toCallState(row) : null;
    },
    async callStateByToken(tokenHash) {
      const [row] = await sendSql<CallStateRow>(db, CALL_STATE_BY_TOKEN, [tokenHash]);
      return row ? toCallState(row) : null;
    },
    async ended(ids, now) {
      if (ids.length === 0) return [];
      const open = await db<AgentSessionRow>('agent_sessions')
        .join('executions', 'executions.id', 'agent_sessions.execution_id')
        .whereIn('agent_sessions.execution_id', [...ids])
        .where('executions.status', 'running')
        .where('agent_sessions.expires_at', '>', now)
        .select<{ execution_id: string }[]>('agent_sessions.execution_id');
      const stillOpen = new Set(open.map((row) => row.execution_id));
      return ids.filter((id) => !stillOpen.has(id));
    },
    async runningOwnedBy(ownerId) {
      const rows = await db('executions')
        .where({ owner_id: ownerId, kind: 'agent_session', status: 'running' })
        .orderBy('created_at')
        .select<{ id: string }[]>('id');
      return rows.map((row) => row.id);
    },
    async expiredRunning(now, limit) {
      const rows = await db<AgentSessionRow>('agent_sessions')
        .join('executions', 'executions.id', 'agent_sessions.execution_id')
        .where('executions.status', 'running')
        .where('agent_sessions.expires_at', '<=', now)
        .orderBy('agent_sessions.expires_at')
        .limit(limit)
        .select<{ execution_id: string }[]>('agent_sessions.execution_id');
      return rows.map((row) => row.execution_id);
    },
    async coverageChanged(id) {
      await enqueueReplacing(db, 'github_session_recheck', { session_id: id }, { jobKey: `github_session_recheck:${id}` });
    },
  };
}
