import type { Knex } from 'knex';
import type { AgentCallApproval, AgentCallApprovals } from '../../../core/mcp/agent-call-approvals.js';
import { sendSql } from '../../send-sql.js';
import type { AgentCallApprovalRow } from '../../tables.js';

type Joined = AgentCallApprovalRow & {
  owner_id: string;
  owner_name: string | null;
  agent_key_creator: string | null;
  repo_root: string | null;
  decided_by_name: string | null;
};

/** A held call with the people of its session (owner, key creator) and its decider's name. */
const SELECT = `
  SELECT a.*, e.owner_id, owner.name AS owner_name, k.created_by AS agent_key_creator, e.repo_root, decider.name AS decided_by_name
  FROM agent_call_approvals a
  JOIN executions e ON e.id = a.execution_id
  JOIN agent_sessions s ON s.execution_id = a.execution_id
  LEFT JOIN agent_keys k ON k.id = s.agent_key_id
  LEFT JOIN users owner ON owner.id = e.owner_id
  LEFT JOIN users decider ON decider.id = a.decided_by`;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toApproval(row: Joined): AgentCallApproval {
  return {
    ...row,
    requested_at: row.requested_at.toISOString(),
    deadline: row.deadline.toISOString(),
    decided_at: iso(row.decided_at),
  };
}

/** Held gateway calls in `agent_call_approvals` (docs/mcp-gateway.md, "Asking a person"). */
export function createAgentCallApprovals(db: Knex): AgentCallApprovals {
  const get = async (id: string) => {
    const [row] = await sendSql<Joined>(db, `${SELECT} WHERE a.id = $1`, [id]);
    return row ? toApproval(row) : null;
  };
  return {
    async ask(call) {
      const [row] = await sendSql<{ id: string }>(
        db,
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
    },
    get,
    async pending(now) {
      const rows = await sendSql<Joined>(db, `${SELECT} WHERE a.decision IS NULL AND a.deadline > $1 ORDER BY a.requested_at, a.id`, [now]);
      return rows.map(toApproval);
    },
    async decide(id, decision, by, reason, at) {
      // A person's decision counts only before the deadline; the timeout and a session's end settle whatever is still pending.
      const [row] = await sendSql<{ id: string }>(
        db,
        `UPDATE agent_call_approvals SET decision = $2, decided_by = $3, reason = $4, decided_at = $5
         WHERE id = $1 AND decision IS NULL AND ($3::uuid IS NULL OR deadline > $5) RETURNING id`,
        [id, decision, by, reason, at],
      );
      const approval = await get(id);
      return approval ? { approval, decided: row !== undefined } : null;
    },
  };
}
