import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { readBody, startHttpServer, type FakeHttpServer } from '../fakes/fake-http.js';
import { startGateway, type GatewayFixture } from './support/gateway-fixture.js';
import { rawAgentSession, registerRawPolicy, type ToolResult } from './support/raw-agent-session.js';

// An upstream is trusted infrastructure, its results are not (docs/mcp-gateway.md, "Redaction"): one
// holding a number past the double range was an internal error, the call that ran upstream unrecorded.
// Nor are an agent's arguments: one holding a NUL was forwarded, ran upstream, and then could not be recorded.

let gateway: GatewayFixture;
let client: Client | undefined;
let upstream: FakeHttpServer;

/** JSON-RPC results written as text, so a number can be one JSON.stringify never writes. */
const RESULTS: Record<string, (params: { protocolVersion?: string; name?: string }) => string> = {
  initialize: (params) =>
    JSON.stringify({ protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'raw', version: '1' } }),
  'tools/list': () =>
    JSON.stringify({
      tools: ['measure', 'describe'].map((name) => ({
        name,
        inputSchema: { type: 'object' },
        annotations: { readOnlyHint: true, openWorldHint: false },
      })),
    }),
  'tools/call': (params) =>
    params.name === 'describe'
      ? '{"content":[{"type":"text","text":"before\\u0000after \\ud800 end"}]}'
      : '{"content":[{"type":"text","text":"measured"}],"structuredContent":{"size":1e400}}',
};
/** The tools/call requests the upstream received: a call that was refused must not be among them. */
const forwarded: unknown[] = [];

beforeAll(async () => {
  gateway = await startGateway();
  upstream = await startHttpServer(async (req, res) => {
    const message = JSON.parse((await readBody(req)) || '{}') as { id?: unknown; method: string; params?: { protocolVersion?: string } };
    if (message.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    if (message.method === 'tools/call') forwarded.push(message.params);
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
  await registerRawPolicy(t);
}, 60_000);

afterAll(async () => {
  await client?.close().catch(() => undefined);
  await upstream?.close();
  await gateway?.stop();
});

async function openSession(): Promise<{ id: string }> {
  await client?.close();
  const session = await rawAgentSession(gateway.t, ['raw'], ['mcp:raw/*']);
  client = session.client;
  return session;
}

it("records a call whose upstream answered a number past the double range as that upstream's failure, certified, and tells the agent", async () => {
  const { t } = gateway;
  const session = { body: await openSession() };
  const result = (await client!.callTool({ name: 'raw__measure', arguments: {} })) as ToolResult;
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

it('refuses arguments holding a NUL or a lone surrogate before the upstream sees them, recording the call denied, as made storable', async () => {
  const { t } = gateway;
  const session = await openSession();
  const before = forwarded.length;
  const refused = [{ x: 'delete\u0000branch' }, { '\ud800key': 1 }];
  for (const args of refused) {
    const result = (await client!.callTool({ name: 'raw__measure', arguments: args })) as ToolResult;
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/^DENIED: invalid_arguments/);
  }
  expect(forwarded.length).toBe(before);
  const calls = await t.request.get(`/api/v1/executions/${session.id}/tool-calls`).set(t.admin.auth);
  expect(calls.body).toEqual([
    expect.objectContaining({ seq: 1, verdict: 'denied', reason: 'invalid_arguments', arguments: { x: 'delete\uFFFDbranch' } }),
    expect.objectContaining({ seq: 2, verdict: 'denied', reason: 'invalid_arguments', arguments: { '\uFFFDkey': 1 } }),
  ]);
  expect(calls.body.every((c: { certificate_id: string | null }) => c.certificate_id)).toBe(true);
});

it('records a result holding a NUL or a lone surrogate with U+FFFD in their place, and passes it on', async () => {
  const { t } = gateway;
  const session = await openSession();
  const result = (await client!.callTool({ name: 'raw__describe', arguments: {} })) as ToolResult;
  expect(result.isError).toBeFalsy();
  expect(result.content[0].text).toMatch(/^before.after/);
  const calls = await t.request.get(`/api/v1/executions/${session.id}/tool-calls`).set(t.admin.auth);
  expect(calls.body).toEqual([expect.objectContaining({ seq: 1, verdict: 'allowed', output: 'before\uFFFDafter \uFFFD end' })]);
});

it('forwards arguments holding a secret as sent, and records and signs them with the secret replaced', async () => {
  const { t } = gateway;
  const session = await openSession();
  const token = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
  const result = (await client!.callTool({ name: 'raw__describe', arguments: { note: `use ${token}` } })) as ToolResult;
  expect(result.isError).toBeFalsy();
  expect(forwarded.at(-1)).toMatchObject({ arguments: { note: `use ${token}` } });
  const calls = await t.request.get(`/api/v1/executions/${session.id}/tool-calls`).set(t.admin.auth);
  expect(calls.body).toEqual([expect.objectContaining({ seq: 1, arguments: { note: 'use [REDACTED:secrets:github_token]' } })]);
  expect(JSON.stringify(calls.body)).not.toContain(token);
});
