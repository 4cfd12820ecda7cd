import type { Knex } from 'knex';
import type { AgentKey, AgentKeyStore } from '../../../core/mcp/agent-key.js';
import type { AgentKeyRow, UserRow } from '../../tables.js';

function toAgentKey(row: AgentKeyRow): AgentKey {
  return {
    id: row.id,
    name: row.name,
    repo_root: row.repo_root,
    compliance_policy: row.compliance_policy,
    policy_version: row.policy_version,
    permissions: row.permissions,
    servers: row.servers,
    max_tool_calls: row.max_tool_calls,
    session_seconds: row.session_seconds,
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
    revoked_at: row.revoked_at ? row.revoked_at.toISOString() : null,
    revoked_reason: row.revoked_reason,
  };
}

/** Repository agent keys in PostgreSQL, stored as their SHA-256 (docs/mcp-gateway.md). */
export function createAgentKeyStore(db: Knex): AgentKeyStore {
  return {
    async create(key) {
      const [row] = await db<AgentKeyRow>('agent_keys')
        .insert({ ...key, permissions: key.permissions ? (JSON.stringify(key.permissions) as unknown as string[]) : null })
        .returning('*');
      return toAgentKey(row);
    },
    async list() {
      return (await db<AgentKeyRow>('agent_keys').orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id' }])).map(toAgentKey);
    },
    async get(id) {
      const row = await db<AgentKeyRow>('agent_keys').where({ id }).first();
      return row ? toAgentKey(row) : null;
    },
    async activeByHash(keyHash) {
      const row = await db<AgentKeyRow>('agent_keys')
        .join<UserRow>('users', 'users.id', 'agent_keys.created_by')
        .where('agent_keys.key_hash', keyHash)
        .whereNull('agent_keys.revoked_at')
        .first<(AgentKeyRow & { creator_active: boolean }) | undefined>('agent_keys.*', 'users.active as creator_active');
      return row ? { key: toAgentKey(row), creator_active: row.creator_active } : null;
    },
    async revoke(id, reason) {
      // A revoked key keeps its first revocation's time and reason.
      const rows = await db<AgentKeyRow>('agent_keys')
        .where({ id })
        .update({
          revoked_at: db.raw('coalesce(revoked_at, now())') as unknown as Date,
          revoked_reason: db.raw('coalesce(revoked_reason, ?)', [reason]) as unknown as AgentKeyRow['revoked_reason'],
        })
        .returning('id');
      return rows.length > 0;
    },
    async revokeCreatedBy(userId, reason) {
      return db<AgentKeyRow>('agent_keys')
        .where({ created_by: userId })
        .whereNull('revoked_at')
        .update({ revoked_at: db.fn.now() as unknown as Date, revoked_reason: reason });
    },
    async repoint(id, policy) {
      const [row] = await db<AgentKeyRow>('agent_keys')
        .where({ id })
        .whereNull('revoked_at')
        .update({ compliance_policy: policy.name, policy_version: policy.version })
        .returning('*');
      return row ? toAgentKey(row) : null;
    },
  };
}
