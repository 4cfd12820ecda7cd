import http from 'node:http';
import Koa from 'koa';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpUpstreamClient } from '../../core/mcp/mcp-upstream-client.js';
import { verifyPackage } from '../../core/certificates/verify-package.js';
import type { TestApp } from '../support/test-app.js';
import { buildMcpEndpoint } from '../../api/mcp/mcp-endpoint.js';
import { freePort, mcpClient } from './support/everything-upstream.js';
import { startGateway, type GatewayFixture } from './support/gateway-fixture.js';

let gateway: GatewayFixture;
let t: TestApp;
const clients: Client[] = [];
/** What the gateway did with upstream connections, in order. */
const events: string[] = [];

/** Wraps the gateway's upstream client so each connection, listing, call and close is noted. */
function counting(real: McpUpstreamClient): McpUpstreamClient {
  return {
    ...real,
    async connect(upstream, ms, handlers) {
      const connection = await real.connect(upstream, ms, handlers);
      events.push('connect');
      return {
        listTools: (timeout) => (events.push('list'), connection.listTools(timeout)),
        callTool: (name, args, timeout) => (events.push('call'), connection.callTool(name, args, timeout)),
        close: () => (events.push('close'), connection.close()),
      };
    },
  };
}

beforeAll(async () => {
  gateway = await startGateway();
  t = gateway.t;
  t.deps.mcpUpstreamClient = counting(t.deps.mcpUpstreamClient);
}, 60_000);

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await gateway?.stop();
});

async function agent(baseUrl?: string): Promise<{ id: string; client: Client }> {
  const res = await t.request
    .post('/api/v1/agent-sessions')
    .set(t.admin.auth)
    .send({ name: 'connections', repo_root: 'acme/shop', servers: ['everything'], permissions: ['mcp:everything/*'] });
  expect(res.status).toBe(201);
  const url = baseUrl ? `${baseUrl}${new URL(res.body.mcp_url).pathname}` : res.body.mcp_url;
  const client = await mcpClient(url, { Authorization: `Bearer ${res.body.token}` });
  clients.push(client);
  return { id: res.body.id, client };
}

/** The events noted while `act` ran. */
async function during(act: () => Promise<unknown>): Promise<string[]> {
  const from = events.length;
  await act();
  return events.slice(from);
}

const echo = (client: Client, message: string) => client.callTool({ name: 'everything__echo', arguments: { message } });

describe('upstream connections of an MCP session', () => {
  it('are opened once and the tools listed once for the whole MCP session; ending it (DELETE) closes them', async () => {
    const { client } = await agent();
    const seen = await during(async () => {
      await client.listTools();
      for (let i = 0; i < 3; i++) expect((await echo(client, `call ${i}`)).isError).toBeFalsy();
    });
    expect(seen).toEqual(['connect', 'list', 'call', 'call', 'call']);
    expect(await during(() => (client.transport as StreamableHTTPClientTransport).terminateSession())).toEqual(['close']);
  });

  it('are closed once the agent session is closed or cancelled (the sweep), or expired (at the next request)', async () => {
    const closed = await agent();
    const cancelled = await agent();
    const expired = await agent();
    for (const { client } of [closed, cancelled, expired]) await echo(client, 'first');
    expect((await t.request.post(`/api/v1/agent-sessions/${closed.id}/close`).set(t.admin.auth)).status).toBe(200);
    expect((await t.request.delete(`/api/v1/executions/${cancelled.id}`).set(t.admin.auth)).status).toBe(200);
    expect(await during(() => t.mcp.sweep())).toEqual(['close', 'close']);
    await t.database
      .db('agent_sessions')
      .where({ execution_id: expired.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect(await during(() => expect(echo(expired.client, 'late')).rejects.toThrow(/403|ended/))).toEqual(['close']);
  });

  it('are closed when the server shuts down', async () => {
    // A second endpoint on a server of its own, so shutting it down leaves the other tests theirs.
    const endpoint = buildMcpEndpoint(t.deps);
    const app = new Koa();
    app.use(endpoint.middleware);
    const port = await freePort();
    const server = http.createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    try {
      const { client } = await agent(`http://127.0.0.1:${port}`);
      expect(await during(() => echo(client, 'before shutdown'))).toEqual(['connect', 'list', 'call']);
      expect(await during(() => endpoint.close())).toEqual(['close']);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('calls of one session made at once', () => {
  it('each get the next seq and chain to the previous certificate (the state read with the request is read again when stale)', async () => {
    const { id, client } = await agent();
    const results = await Promise.all([echo(client, 'one'), echo(client, 'two'), echo(client, 'three')]);
    for (const result of results) expect(result.isError).toBeFalsy();
    const recorded = await t.request.get(`/api/v1/executions/${id}`).set(t.admin.auth);
    expect(recorded.body.tool_calls.map((c: { seq: number; verdict: string }) => [c.seq, c.verdict])).toEqual([
      [1, 'allowed'],
      [2, 'allowed'],
      [3, 'allowed'],
    ]);
    expect((await t.request.post(`/api/v1/agent-sessions/${id}/close`).set(t.admin.auth)).status).toBe(200);
    // Its MCP session ends here too, so a later sweep in this file has no connection of this test to close.
    await (client.transport as StreamableHTTPClientTransport).terminateSession();
    const exported = await t.request.get(`/api/v1/compliance/${id}/export`).set(t.admin.auth);
    expect(verifyPackage(exported.body, exported.body.public_keys)).toMatchObject({ ok: true, certificatesChecked: 4 });
  });
});
