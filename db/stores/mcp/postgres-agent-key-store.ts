import type { Knex } from 'knex';
import type { AgentKey, AgentKeyStore } from '../../../core/mcp/agent-key.js';
import type { AgentKeyRow } from '../../tables.js';

function toAgentKey(row: AgentKeyRow): AgentKey {
  return {
    id: row.id,
    name: row.name,
    repo_root: row.repo_root,
    compliance_policy: row.compliance_policy,
    permissions: row.permissions,
    servers: row.servers,
    max_tool_calls: row.max_tool_calls,
    session_seconds: row.session_seconds,
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
    revoked_at: row.revoked_at ? row.revoked_at.toISOString() : null,
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
    async activeByHash(keyHash) {
      const row = await db<AgentKeyRow>('agent_keys').where({ key_hash: keyHash }).whereNull('revoked_at').first();
      return row ? toAgentKey(row) : null;
    },
    async revoke(id) {
      const rows = await db<AgentKeyRow>('agent_keys')
        .where({ id })
        .update({ revoked_at: db.raw('coalesce(revoked_at, now())') as unknown as Date })
        .returning('id');
      return rows.length > 0;
    },
  };
}
