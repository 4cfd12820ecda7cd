import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { readBody, startHttpServer, type FakeHttpServer } from '../fakes/fake-http.js';
import { mcpClient } from './support/everything-upstream.js';
import { startGateway, type GatewayFixture } from './support/gateway-fixture.js';

// An upstream is trusted infrastructure, its results are not (docs/mcp-gateway.md, "Redaction"): one
// holding a number past the double range was an internal error, the call that ran upstream unrecorded.

let gateway: GatewayFixture;
let client: Client | undefined;
let upstream: FakeHttpServer;

/** JSON-RPC results written as text, so a number can be one JSON.stringify never writes. */
const RESULTS: Record<string, (params: { protocolVersion?: string }) => string> = {
  initialize: (params) =>
    JSON.stringify({ protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'raw', version: '1' } }),
  'tools/list': () =>
    JSON.stringify({
      tools: [{ name: 'measure', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false } }],
    }),
  'tools/call': () => '{"content":[{"type":"text","text":"measured"}],"structuredContent":{"size":1e400}}',
};

beforeAll(async () => {
  gateway = await startGateway();
  upstream = await startHttpServer(async (req, res) => {
    const message = JSON.parse((await readBody(req)) || '{}') as { id?: unknown; method: string; params?: { protocolVersion?: string } };
    if (message.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    const result = RESULTS[message.method]?.(message.params ?? {}) ?? '{}';
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(`{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":${result}}`);
  });
  const { t } = gateway;
  expect(
    (
      await t.request
        .post('/api/v1/mcp/servers')
        .set(t.admin.auth)
        .send({ name: 'raw', url: `${upstream.url}/mcp` })
    ).status,
  ).toBe(201);
  expect(
    (
      await t.request
        .post('/api/v1/policies')
        .set(t.admin.auth)
        .send({ name: 'raw-mcp', ceiling: ['mcp:*'] })
    ).status,
  ).toBe(201);
}, 60_000);

afterAll(async () => {
  await client?.close().catch(() => undefined);
  await upstream?.close();
  await gateway?.stop();
});

it("records a call whose upstream answered a number past the double range as that upstream's failure, certified, and tells the agent", async () => {
  const { t } = gateway;
  const session = await t.request
    .post('/api/v1/agent-sessions')
    .set(t.admin.auth)
    .send({ name: 'raw', repo_root: 'acme/shop', servers: ['raw'], permissions: ['mcp:raw/*'], compliance_policy: 'raw-mcp' });
  expect(session.status).toBe(201);
  client = await mcpClient(session.body.mcp_url, { Authorization: `Bearer ${session.body.token}` });
  const result = (await client.callTool({ name: 'raw__measure', arguments: {} })) as { isError?: boolean; content: { text: string }[] };
  expect(result.isError).toBe(true);
  expect(result.content[0].text).toMatch(/^ERROR: upstream 'raw' failed: .*beyond the double range/);
  const calls = await t.request.get(`/api/v1/executions/${session.body.id}/tool-calls`).set(t.admin.auth);
  expect(calls.body).toEqual([
    expect.objectContaining({
      seq: 1,
      tool: 'raw__measure',
      verdict: 'allowed',
      output: expect.stringMatching(/double range/),
      certificate_id: expect.any(String),
    }),
  ]);
});
