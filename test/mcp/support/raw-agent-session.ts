import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { TestApp } from '../../support/test-app.js';
import { mcpClient } from './everything-upstream.js';

/** A tool result as the SDK client answers it. */
export type ToolResult = { isError?: boolean; content: { text: string }[] };

/**
 * An ADMIN's agent session on `servers` under the policy `raw-mcp` (the test registers it, ceiling `mcp:*`), and the
 * official SDK client connected to it: the hostile-upstream tests' agent.
 */
export async function rawAgentSession(t: TestApp, servers: string[], permissions: string[]): Promise<{ id: string; client: Client }> {
  const session = await t.request
    .post('/api/v1/agent-sessions')
    .set(t.admin.auth)
    .send({ name: 'raw', repo_root: 'acme/shop', servers, permissions, compliance_policy: 'raw-mcp' });
  if (session.status !== 201) throw new Error(`opening the agent session failed: ${session.status} ${session.text}`);
  const client = await mcpClient(session.body.mcp_url, { Authorization: `Bearer ${session.body.token}` });
  return { id: session.body.id, client };
}

/** Registers the policy rawAgentSession opens its sessions under: `raw-mcp`, ceiling `mcp:*`. */
export async function registerRawPolicy(t: TestApp): Promise<void> {
  const created = await t.request
    .post('/api/v1/policies')
    .set(t.admin.auth)
    .send({ name: 'raw-mcp', ceiling: ['mcp:*'] });
  if (created.status !== 201) throw new Error(`registering the policy failed: ${created.status} ${created.text}`);
}
