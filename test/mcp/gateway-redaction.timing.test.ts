import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { TestApp, TestUser } from '../support/test-app.js';
import { LEAKED_SECRETS, LEAKY_JSON_TEXT, LEAKY_TEXT, TOKEN_IN_BLOB } from '../support/leaked-secrets.js';
import { mcpClient } from './support/everything-upstream.js';
import { startFixtureUpstream, type FixtureUpstream } from './support/fixture-upstream.js';
import { startGateway, type GatewayFixture } from './support/gateway-fixture.js';

// Issue 34, acceptance 4 and 1 (docs/mcp-gateway.md, "Redaction"): the output rules apply to each
// value of an upstream's result, so no secret passes behind a line start, a tab or an escape, a
// private key's body is redacted with its BEGIN line, and a base64 blob is decoded and scanned.

const toBase64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const LEAKY_BLOB = toBase64(`GITHUB_TOKEN=${TOKEN_IN_BLOB}\n`);
/** A PNG signature and header: bytes that are not UTF-8 text, so the `secrets` rule cannot scan them. */
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0xff]).toString(
  'base64',
);

const ANSWERS = {
  text: [{ type: 'text', text: LEAKY_TEXT }],
  json: [{ type: 'text', text: LEAKY_JSON_TEXT }],
  blob: [{ type: 'resource', resource: { uri: 'file:///deploy/.env', mimeType: 'text/plain', blob: LEAKY_BLOB } }],
  image: [{ type: 'image', data: PNG, mimeType: 'image/png' }],
};

let gateway: GatewayFixture;
let t: TestApp;
let fixture: FixtureUpstream;
let operator: TestUser;
const clients: Client[] = [];

beforeAll(async () => {
  gateway = await startGateway();
  t = gateway.t;
  fixture = await startFixtureUpstream(ANSWERS);
  const registered = await t.request.post('/api/v1/mcp/servers').set(t.admin.auth).send({ name: 'fixture', url: fixture.url });
  expect(registered.status).toBe(201);
  for (const [name, output_rules] of [
    ['mcp-regulated', ['secrets', 'pii']],
    ['mcp-pii-only', ['pii']],
  ] as const) {
    const policy = await t.request
      .post('/api/v1/policies')
      .set(t.admin.auth)
      .send({ name, ceiling: ['mcp:*'], output_rules });
    expect(policy.status).toBe(201);
  }
  operator = await t.user('OPERATOR');
}, 60_000);

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await fixture?.close();
  await gateway?.stop();
});

async function agentSession(body: Record<string, unknown>): Promise<{ id: string; client: Client }> {
  const res = await t.request
    .post('/api/v1/agent-sessions')
    .set(operator.auth)
    .send({ name: 'Redaction', repo_root: 'acme/shop', servers: ['fixture'], permissions: ['mcp:fixture/*'], ...body });
  expect(res.status).toBe(201);
  const client = await mcpClient(res.body.mcp_url, { Authorization: `Bearer ${res.body.token}` });
  clients.push(client);
  return { id: res.body.id, client };
}

/** Everything shipgate keeps about a session, as text: the execution, its tool calls and, once closed, its export. */
async function recordOf(id: string): Promise<{ text: string; verdict: string }> {
  const execution = await t.request.get(`/api/v1/executions/${id}`).set(operator.auth);
  const calls = await t.request.get(`/api/v1/executions/${id}/tool-calls?limit=100`).set(operator.auth);
  const closed = await t.request.post(`/api/v1/agent-sessions/${id}/close`).set(operator.auth);
  const exported = await t.request.get(`/api/v1/compliance/${id}/export`).set(operator.auth);
  for (const res of [execution, calls, closed, exported]) expect(res.status).toBe(200);
  return { text: [execution.text, calls.text, closed.text, exported.text].join('\n'), verdict: closed.body.verdict };
}

const textOf = (result: Record<string, unknown>) =>
  ((result.content ?? []) as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');

describe('redaction of upstream results, value by value', () => {
  it('under default: a token at a line start, a key after a tab, a private key body, JSON text and a base64 blob reach neither the agent nor the record', async () => {
    const { id, client } = await agentSession({ compliance_policy: 'default' });
    const text = await client.callTool({ name: 'fixture__read', arguments: { name: 'text' } });
    const json = await client.callTool({ name: 'fixture__read', arguments: { name: 'json' } });
    const blob = await client.callTool({ name: 'fixture__read', arguments: { name: 'blob' } });
    for (const result of [text, json, blob]) expect(result.isError).toBeFalsy();

    expect(textOf(text)).toBe(
      'build log\n[REDACTED:secrets:github_token]\naws\t[REDACTED:secrets:aws_access_key]\n[REDACTED:secrets:private_key]\n',
    );
    expect(JSON.parse(textOf(json))).toEqual({ log: 'step 1\n[REDACTED:secrets:github_token]\nstep 2' });
    const [resource] = blob.content as { resource: { uri: string; blob: string } }[];
    expect(resource.resource.uri).toBe('file:///deploy/.env');
    expect(Buffer.from(resource.resource.blob, 'base64').toString('utf8')).toBe('GITHUB_TOKEN=[REDACTED:secrets:github_token]\n');

    const agentSaw = JSON.stringify([text, json, blob]);
    const record = await recordOf(id);
    for (const secret of [...LEAKED_SECRETS, LEAKY_BLOB]) {
      expect(agentSaw).not.toContain(secret);
      expect(record.text).not.toContain(secret);
    }
    expect(t.logs.text()).not.toContain(TOKEN_IN_BLOB);
    // A redacted secret never reached the agent: it does not make the session non-compliant.
    expect(record.verdict).toBe('compliant');
  });

  it('under secrets, refuses a result holding bytes it cannot scan: the agent gets why, the record the refusal', async () => {
    const { id, client } = await agentSession({ compliance_policy: 'default' });
    const result = await client.callTool({ name: 'fixture__read', arguments: { name: 'image' } });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      {
        type: 'text',
        text: "REFUSED: the result of upstream 'fixture' was not passed on: the output rule 'secrets' cannot scan content[0].data: not UTF-8 text",
      },
    ]);
    const calls = await t.request.get(`/api/v1/executions/${id}/tool-calls?limit=100`).set(operator.auth);
    expect(calls.body).toEqual([
      expect.objectContaining({ verdict: 'allowed', output: expect.stringMatching(/^REFUSED: /), certificate_id: expect.any(String) }),
    ]);
    expect(t.logs.events('mcp.tool_result_refused')).toEqual([
      expect.objectContaining({ execution_id: id, tool: 'fixture__read', unscannable: ['content[0].data: not UTF-8 text'] }),
    ]);
    const record = await recordOf(id);
    expect(record.text).not.toContain(PNG);
    expect(record.verdict).toBe('compliant');
  });

  it('passes bytes it cannot scan under a policy without secrets', async () => {
    const { client } = await agentSession({ compliance_policy: 'mcp-pii-only' });
    const result = await client.callTool({ name: 'fixture__read', arguments: { name: 'image' } });
    expect(result).toMatchObject({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] });
    expect(result.isError).toBeFalsy();
  });
});

describe('the pii rule on hostile input', () => {
  it('answers an echo of 160 KB of hostile input within 1 s, while /healthz answers within 200 ms', async () => {
    const { client } = await agentSession({
      compliance_policy: 'mcp-regulated',
      servers: ['everything'],
      permissions: ['mcp:everything/echo'],
    });
    const hostile = 'a.'.repeat(80_000);
    // The session's first call connects to the upstream; this one is about the call alone.
    expect(textOf(await client.callTool({ name: 'everything__echo', arguments: { message: 'warm' } }))).toBe('Echo: warm');
    let calling = true;
    const started = performance.now();
    const call = client.callTool({ name: 'everything__echo', arguments: { message: hostile } }).finally(() => (calling = false));
    const latencies: number[] = [];
    while (calling) {
      const asked = performance.now();
      const res = await fetch(`${gateway.url}/healthz`);
      expect(res.status).toBe(200);
      latencies.push(performance.now() - asked);
    }
    const result = await call;
    const seconds = (performance.now() - started) / 1000;
    expect(textOf(result)).toBe(`Echo: ${hostile}`);
    // About 0.3 s and 70 ms on the 2-core development machine (the old e-mail detector: 55 s).
    expect(seconds).toBeLessThan(1);
    expect(Math.max(...latencies)).toBeLessThan(200);
  });
});
