import type { Knex } from 'knex';
import { openSecret, sealSecret } from '../../../core/executions/seal-secret.js';
import type { McpServer, McpServerRegistry, McpUpstream } from '../../../core/mcp/mcp-server-registry.js';
import type { McpServerRow } from '../../tables.js';

/** Authenticated with the sealed headers, so a ciphertext copied to another server's row will not open. */
const headersContext = (name: string) => `mcp_server:${name}`;

function toServer(row: McpServerRow): McpServer {
  return {
    name: row.name,
    url: row.url,
    header_names: row.header_names,
    tools: row.tools,
    auth: row.auth,
    created_at: row.created_at.toISOString(),
  };
}

/** Upstream MCP servers in PostgreSQL; their headers are sealed with `secretKey`. */
export function createMcpServerRegistry(db: Knex, secretKey: Buffer): McpServerRegistry {
  return {
    async create(server, createdBy) {
      const headers = server.headers ?? {};
      const names = Object.keys(headers);
      const [row] = await db<McpServerRow>('mcp_servers')
        .insert({
          name: server.name,
          url: server.url,
          headers_ciphertext: names.length > 0 ? sealSecret(secretKey, JSON.stringify(headers), headersContext(server.name)) : null,
          header_names: names,
          tools: server.tools ? ({ ...server.tools } as Record<string, string[]>) : null,
          auth: server.auth ? { ...server.auth } : null,
          created_by: createdBy,
        })
        .returning('*');
      return toServer(row);
    },
    async list() {
      return (await db<McpServerRow>('mcp_servers').orderBy('name')).map(toServer);
    },
    async upstreams(names) {
      if (names.length === 0) return [];
      const rows = await db<McpServerRow>('mcp_servers').whereIn('name', [...names]);
      return rows.map((row): McpUpstream => ({
        ...toServer(row),
        headers: row.headers_ciphertext
          ? (JSON.parse(openSecret(secretKey, row.headers_ciphertext, headersContext(row.name))) as Record<string, string>)
          : {},
      }));
    },
    async delete(name) {
      return (await db<McpServerRow>('mcp_servers').where({ name }).delete()) > 0;
    },
  };
}
