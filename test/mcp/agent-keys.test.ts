import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { TestApp } from '../support/test-app.js';
import { mcpClient } from './support/everything-upstream.js';
import { startGateway, type GatewayFixture } from './support/gateway-fixture.js';

let gateway: GatewayFixture;
let t: TestApp;
const clients: Client[] = [];

beforeAll(async () => {
  gateway = await startGateway();
  t = gateway.t;
}, 60_000);

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await gateway?.stop();
});

async function agentWithKey(url: string, key: string): Promise<Client> {
  const client = await mcpClient(url, { Authorization: `Bearer ${key}` });
  clients.push(client);
  return client;
}

async function sessionsOf(repo: string) {
  const res = await t.request.get('/api/v1/executions?limit=100').set(t.admin.auth);
  expect(res.status).toBe(200);
  return (res.body as { id: string; kind: string; repo_root: string; status: string }[]).filter(
    (e) => e.kind === 'agent_session' && e.repo_root === repo,
  );
}

describe('repository agent keys', () => {
  it('open a new governed session per MCP session; revoking one stops new sessions', async () => {
    const created = await t.request
      .post('/api/v1/agent-keys')
      .set(t.admin.auth)
      .send({ name: 'copilot-coding-agent', repo_root: 'acme/shop', permissions: ['mcp:everything/*'], servers: ['everything'] });
    expect(created.status).toBe(201);
    const { key, mcp_url: url, id } = created.body;
    expect(url).toMatch(/\/api\/v1\/mcp$/);
    const listed = await t.request.get('/api/v1/agent-keys').set(t.admin.auth);
    // Another test of the file may have made keys of its own before.
    expect(listed.body).toContainEqual(expect.objectContaining({ id, name: 'copilot-coding-agent', revoked_at: null }));
    expect(listed.text).not.toContain(key);

    const first = await agentWithKey(url, key);
    const second = await agentWithKey(url, key);
    expect((await first.callTool({ name: 'everything__echo', arguments: { message: 'one' } })).isError).toBeFalsy();
    expect((await second.callTool({ name: 'everything__echo', arguments: { message: 'two' } })).isError).toBeFalsy();
    const sessions = await sessionsOf('acme/shop');
    expect(sessions).toHaveLength(2);
    for (const session of sessions) {
      const record = (await t.request.get(`/api/v1/executions/${session.id}`).set(t.admin.auth)).body;
      expect(record).toMatchObject({
        status: 'running',
        task: 'copilot-coding-agent',
        tool_calls: [expect.objectContaining({ verdict: 'allowed' })],
      });
    }

    expect((await t.request.delete(`/api/v1/agent-keys/${id}`).set(t.admin.auth)).status).toBe(204);
    await expect(agentWithKey(url, key)).rejects.toThrow(/not an active agent key|neither an agent session token nor an active agent key/);
    await expect(second.callTool({ name: 'everything__echo', arguments: { message: 'after' } })).rejects.toThrow(
      /not an active agent key|neither an agent session token nor an active agent key/,
    );
    expect(await sessionsOf('acme/shop')).toHaveLength(2);
    expect((await t.request.get('/api/v1/agent-keys').set(t.admin.auth)).body[0].revoked_at).not.toBeNull();
  });

  it('refuses a key whose terms do not resolve, and anything but an initialize without an MCP session', async () => {
    const bad = await t.request
      .post('/api/v1/agent-keys')
      .set(t.admin.auth)
      .send({ name: 'x', repo_root: 'acme/shop', servers: ['not-registered'] });
    expect(bad.status).toBe(422);
    const created = await t.request
      .post('/api/v1/agent-keys')
      .set(t.admin.auth)
      .send({ name: 'y', repo_root: 'acme/other', servers: ['everything'] });
    const notInitialize = await t.request
      .post('/api/v1/mcp')
      .set('Authorization', `Bearer ${created.body.key}`)
      .set('Accept', 'application/json, text/event-stream')
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(notInitialize.status).toBe(400);
    expect(await sessionsOf('acme/other')).toHaveLength(0);
  });
});
