import type { Knex } from 'knex';
import {
  PENDING_ARGUMENTS_BYTES,
  type AgentCallApproval,
  type AgentCallApprovals,
  type HeldCallState,
  type PendingAgentCall,
} from '../../../core/mcp/agent-call-approvals.js';
import { WORKFLOW_SESSION_OWNER } from '../../../core/mcp/workflow-session.js';
import { sendSql } from '../../send-sql.js';
import type { AgentCallApprovalRow } from '../../tables.js';

type Joined = AgentCallApprovalRow & {
  owner_id: string;
  owner_name: string | null;
  agent_key_creator: string | null;
  workflow_actor_id: string | null;
  repo_root: string | null;
  decided_by_name: string | null;
};

/** The tables a held call's session is read from: its execution, session row, owner, key (if one) and decider. */
const FROM = `
  FROM agent_call_approvals a
  JOIN executions e ON e.id = a.execution_id
  JOIN agent_sessions s ON s.execution_id = a.execution_id
  LEFT JOIN agent_keys k ON k.id = s.agent_key_id
  LEFT JOIN users owner ON owner.id = e.owner_id
  LEFT JOIN users decider ON decider.id = a.decided_by`;

/**
 * Whether the session may still make calls at `$at` (core/mcp/agent-session.ts, sessionIsOpen),
 * and its agent key, if one, is not revoked. The workflow account is never active and is no person.
 */
const LIVE = (at: string) => `(e.status = 'running' AND s.expires_at > ${at}
  AND (owner.active OR e.owner_id = '${WORKFLOW_SESSION_OWNER.id}') AND k.revoked_at IS NULL)`;

/** The people of the session who may not decide its calls, and the decider's name. */
const PEOPLE = `e.owner_id, owner.name AS owner_name, k.created_by AS agent_key_creator, e.repo_root, decider.name AS decided_by_name,
  (SELECT gi.user_id FROM github_identities gi WHERE s.workflow_run IS NOT NULL AND lower(gi.login) = lower(s.workflow_run->>'actor')
    ORDER BY gi.linked_at LIMIT 1) AS workflow_actor_id`;

/** A held call with the people of its session (owner, key creator, workflow actor) and its decider's name. */
const SELECT = `SELECT a.*, ${PEOPLE} ${FROM}`;

const STATE = {
  name: 'agent_call_approval_state',
  text: `SELECT a.id, a.capability, a.deadline, a.decision, a.decided_by, decider.name AS decided_by_name, a.reason,
    ${LIVE('$2')} AS session_live ${FROM} WHERE a.id = $1`,
};

/**
 * A person's decision: the session's execution row and its key's row are share-locked first, so a
 * close or cancel (which update the execution) and a revocation (which updates the key) wait for this
 * statement or it waits for them and reads what they wrote; it records nothing once the session
 * is not live. `$3` is never null here.
 */
const DECIDE = {
  name: 'agent_call_approval_decide',
  text: `WITH call AS (SELECT execution_id FROM agent_call_approvals WHERE id = $1),
    execution AS MATERIALIZED (SELECT e.id, e.status, e.owner_id FROM executions e WHERE e.id = (SELECT execution_id FROM call) FOR SHARE),
    agent_key AS MATERIALIZED (
      SELECT k.revoked_at FROM agent_keys k
      WHERE k.id = (SELECT agent_key_id FROM agent_sessions WHERE execution_id = (SELECT execution_id FROM call)) FOR SHARE),
    live AS (
      SELECT 1 FROM execution e JOIN agent_sessions s ON s.execution_id = e.id JOIN users owner ON owner.id = e.owner_id
      WHERE e.status = 'running' AND s.expires_at > $5
        AND (owner.active OR e.owner_id = '${WORKFLOW_SESSION_OWNER.id}')
        AND NOT EXISTS (SELECT 1 FROM agent_key WHERE revoked_at IS NOT NULL))
    UPDATE agent_call_approvals SET decision = $2, decided_by = $3, reason = $4, decided_at = $5
    WHERE id = $1 AND decision IS NULL AND deadline > $5 AND EXISTS (SELECT 1 FROM live) RETURNING id`,
};

const SETTLE = {
  name: 'agent_call_approval_settle',
  text: `UPDATE agent_call_approvals SET decision = $2, decided_by = NULL, reason = $3, decided_at = $4
    WHERE id = $1 AND decision IS NULL RETURNING id`,
};

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toApproval(row: Joined): AgentCallApproval {
  return {
    ...row,
    requested_at: row.requested_at.toISOString(),
    deadline: row.deadline.toISOString(),
    decided_at: iso(row.decided_at),
  };
}

type PendingRow = Omit<Joined, 'arguments'> & {
  arguments: Record<string, unknown> | null;
  arguments_excerpt: string | null;
  keyset_requested_at: string;
};

// The cursor keeps PostgreSQL's microseconds, as db/keyset-page.ts does.
const CURSOR_TIME = `to_char(a.requested_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS keyset_requested_at`;

/** Held gateway calls in `agent_call_approvals` (docs/mcp-gateway.md, "Asking a person"). */
export function createAgentCallApprovals(db: Knex): AgentCallApprovals {
  const get = async (id: string) => {
    const [row] = await sendSql<Joined>(db, `${SELECT} WHERE a.id = $1`, [id]);
    return row ? toApproval(row) : null;
  };
  const insert = async (trx: Knex | Knex.Transaction, call: Parameters<AgentCallApprovals['ask']>[0]) => {
    const [row] = await sendSql<{ id: string }>(
      trx,
      `INSERT INTO agent_call_approvals (execution_id, seq, tool, arguments, arguments_digest, capability, requested_at, deadline)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
      [
        call.execution_id,
        call.seq,
        call.tool,
        JSON.stringify(call.arguments),
        call.arguments_digest,
        call.capability,
        call.requested_at,
        call.deadline,
      ],
    );
    return row.id;
  };
  return {
    ask: (call) => insert(db, call),
    async askWithin(call, atMost) {
      return db.transaction(async (trx) => {
        // One ask of the session at a time, on every replica, so the count below sees every pending call.
        await sendSql(trx, 'SELECT 1 FROM agent_sessions WHERE execution_id = $1 FOR NO KEY UPDATE', [call.execution_id]);
        const [{ held }] = await sendSql<{ held: number }>(
          trx,
          `SELECT count(*)::int AS held FROM agent_call_approvals WHERE execution_id = $1 AND decision IS NULL AND deadline > $2`,
          [call.execution_id, call.requested_at],
        );
        if (held >= atMost) return { held };
        return insert(trx, call);
      });
    },
    get,
    async state(id, now) {
      const [row] = await sendSql<Omit<HeldCallState, 'deadline'> & { deadline: Date }>(db, STATE, [id, now]);
      return row ? { ...row, deadline: row.deadline.toISOString() } : null;
    },
    async pending(now, page, repoRoots) {
      const params: unknown[] = [now, PENDING_ARGUMENTS_BYTES, page.limit + 1];
      let where = `a.decision IS NULL AND a.deadline > $1 AND ${LIVE('$1')}`;
      if (repoRoots) {
        params.push([...repoRoots]);
        where += ` AND (e.repo_root IS NULL OR e.repo_root = ANY ($${params.length}::text[]))`;
      }
      if (page.cursor) {
        params.push(page.cursor.createdAt, page.cursor.id);
        where += ` AND (a.requested_at, a.id) > ($${params.length - 1}::timestamptz, $${params.length}::uuid)`;
      }
      // Arguments over the bound are cut in the database: the list never carries a held call's whole megabytes.
      const rows = await sendSql<PendingRow>(
        db,
        `SELECT a.id, a.execution_id, a.seq, a.tool, a.arguments_digest, a.capability, a.requested_at, a.deadline,
           a.decision, a.decided_by, a.decided_at, a.reason, ${PEOPLE}, ${CURSOR_TIME},
           CASE WHEN octet_length(a.arguments::text) <= $2 THEN a.arguments END AS arguments,
           CASE WHEN octet_length(a.arguments::text) > $2 THEN left(a.arguments::text, $2) END AS arguments_excerpt
         ${FROM} WHERE ${where} ORDER BY a.requested_at, a.id LIMIT $3`,
        params,
      );
      const items = rows.slice(0, page.limit);
      const last = items.at(-1);
      const next = rows.length > page.limit && last ? { createdAt: last.keyset_requested_at, id: last.id } : undefined;
      return {
        items: items.map(({ keyset_requested_at: _cursor, ...row }): PendingAgentCall => ({
          ...row,
          arguments_truncated: row.arguments === null,
          requested_at: row.requested_at.toISOString(),
          deadline: row.deadline.toISOString(),
          decided_at: iso(row.decided_at),
        })),
        next,
      };
    },
    async pendingRepositories(now) {
      const rows = await sendSql<{ repo_root: string }>(
        db,
        `SELECT DISTINCT e.repo_root ${FROM} WHERE a.decision IS NULL AND a.deadline > $1 AND e.repo_root IS NOT NULL`,
        [now],
      );
      return rows.map((row) => row.repo_root);
    },
    async decide(id, decision, by, reason, at) {
      const [row] = await sendSql<{ id: string }>(db, DECIDE, [id, decision, by, reason, at]);
      const approval = await get(id);
      if (!approval) return null;
      const decided = row !== undefined;
      const ended = !decided && approval.decision === null && Date.parse(approval.deadline) > at.getTime();
      return { approval, decided, ended };
    },
    async settle(id, decision, reason, at) {
      const rows = await sendSql<{ id: string }>(db, SETTLE, [id, decision, reason, at]);
      return rows.length > 0;
    },
  };
}
