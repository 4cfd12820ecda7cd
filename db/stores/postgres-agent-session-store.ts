import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { ExecutionStatus } from '../../core/executions/execution.js';
import type { AgentSession, AgentSessionStore } from '../../core/mcp/agent-session.js';
import { WORKFLOW_SESSION_OWNER } from '../../core/mcp/workflow-session.js';
import type { AgentSessionRow, UserRow } from '../tables.js';
import { executionInsertValues, loadExecution } from './postgres-execution-store.js';

type SessionJoin = AgentSessionRow & { owner_id: string; status: string; repo_root: string | null };

function toSession(row: SessionJoin): AgentSession {
  return {
    id: row.execution_id,
    owner_id: row.owner_id,
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
      .select<SessionJoin[]>('agent_sessions.*', 'executions.owner_id', 'executions.status', 'executions.repo_root');
  return {
    async open(session) {
      const id = randomUUID();
      await db.transaction(async (trx) => {
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
          agent_key_id: session.agent_key_id,
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
  };
}
