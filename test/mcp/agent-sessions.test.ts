import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { verifyPackage } from '../../core/certificates/verify-package.js';
import type { TestApp, TestUser } from '../support/test-app.js';
import { mcpClient, type EverythingUpstream } from './support/everything-upstream.js';
import { startGateway, UPSTREAM_SECRET, type GatewayFixture } from './support/gateway-fixture.js';

const API_KEY_IN_UPSTREAM_ENV = 'sk-proj-Zq4mW8vN2xR7tY1uP6kL3jH9gF5dS0aB';

let gateway: GatewayFixture;
let t: TestApp;
let upstream: EverythingUpstream;
let operator: TestUser;
const clients: Client[] = [];
const bodies: string[] = [];

beforeAll(async () => {
  gateway = await startGateway({ OPENAI_API_KEY: API_KEY_IN_UPSTREAM_ENV });
  ({ t, upstream } = gateway);
  operator = await t.user('OPERATOR');
}, 60_000);

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await gateway?.stop();
});

async function openSession(body: Record<string, unknown>) {
  const res = await t.request
    .post('/api/v1/agent-sessions')
    .set(operator.auth)
    .send({ name: 'Fix the flaky test', repo_root: 'acme/shop', servers: ['everything'], ...body });
  bodies.push(res.text);
  expect(res.status).toBe(201);
  return res.body as { id: string; execution_id: string; mcp_url: string; token: string; expires_at: string };
}

async function agent(session: { mcp_url: string; token: string }): Promise<Client> {
  const client = await mcpClient(session.mcp_url, { Authorization: `Bearer ${session.token}` });
  clients.push(client);
  return client;
}

async function record(id: string) {
  const res = await t.request.get(`/api/v1/executions/${id}`).set(operator.auth);
  bodies.push(res.text);
  expect(res.status).toBe(200);
  return res.body;
}

async function close(id: string) {
  const res = await t.request.post(`/api/v1/agent-sessions/${id}/close`).set(operator.auth);
  bodies.push(res.text);
  expect(res.status).toBe(200);
  return res.body;
}

const textOf = (result: Record<string, unknown>) =>
  ((result.content ?? []) as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');

describe('a governed agent session through the MCP gateway', () => {
  it('lists exactly the allowed upstream tools, forwards an allowed call, and records and certifies it', async () => {
    const session = await openSession({ permissions: ['mcp:everything/*'] });
    expect(session.id).toBe(session.execution_id);
    expect(session.mcp_url).toMatch(new RegExp(`/api/v1/mcp/sessions/${session.id}$`));
    const direct = await mcpClient(upstream.url);
    clients.push(direct);
    const readOnlyClosed = (await direct.listTools()).tools
      .filter((tool) => tool.annotations?.readOnlyHint === true && tool.annotations?.openWorldHint === false)
      .map((tool) => `everything__${tool.name}`)
      .sort();
    const client = await agent(session);
    const listed = (await client.listTools()).tools.map((tool) => tool.name).sort();
    expect(listed).toEqual(readOnlyClosed);
    expect(listed).toContain('everything__echo');
    expect(listed).not.toContain('everything__gzip-file-as-resource');

    const result = await client.callTool({ name: 'everything__echo', arguments: { message: 'hello through shipgate' } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('hello through shipgate');

    const running = await record(session.id);
    expect(running).toMatchObject({ kind: 'agent_session', status: 'running', provider: null, permissions: ['mcp:everything/*'] });
    expect(running.tool_calls).toEqual([
      expect.objectContaining({
        seq: 1,
        tool: 'everything__echo',
        verdict: 'allowed',
        capability: 'mcp:everything/echo',
        certificate_id: expect.any(String),
      }),
    ]);

    const closed = await close(session.id);
    expect(closed).toMatchObject({ status: 'completed', verdict: 'compliant' });
    expect((await close(session.id)).finished_at).toBe(closed.finished_at);
    const exported = await t.request.get(`/api/v1/compliance/${session.id}/export`).set(operator.auth);
    bodies.push(exported.text);
    expect(exported.status).toBe(200);
    expect(verifyPackage(exported.body, exported.body.public_keys)).toMatchObject({ ok: true, failures: [], certificatesChecked: 2 });
  });

  it('under hipaa, denies an open-world tool naming network:*, without reaching the upstream, and the session is non-compliant', async () => {
    const session = await openSession({ compliance_policy: 'hipaa' });
    const client = await agent(session);
    const forwarded: string[] = [];
    const real = t.deps.mcpUpstreamClient.connect;
    t.deps.mcpUpstreamClient.connect = async (u, ms, events) => {
      const connection = await real(u, ms, events);
      return { ...connection, callTool: (name, args, timeout) => (forwarded.push(name), connection.callTool(name, args, timeout)) };
    };
    try {
      const result = await client.callTool({ name: 'everything__gzip-file-as-resource', arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('network:*');
    } finally {
      t.deps.mcpUpstreamClient.connect = real;
    }
    expect(forwarded).toEqual([]);
    const denied = await record(session.id);
    expect(denied.tool_calls).toEqual([
      expect.objectContaining({ verdict: 'denied', reason: 'forbidden_by_policy', capability: 'network:*' }),
    ]);
    expect(await close(session.id)).toMatchObject({ verdict: 'non_compliant' });
    // Its execution certificate signs the violation behind the verdict: the export verifies with nothing left unchecked.
    const exported = await t.request.get(`/api/v1/compliance/${session.id}/export`).set(operator.auth);
    bodies.push(exported.text);
    expect(exported.body.execution.violations).toEqual(['denied_call:1:forbidden_by_policy']);
    expect(verifyPackage(exported.body, exported.body.public_keys)).toMatchObject({ ok: true, failures: [], notes: [] });
  });

  it('redacts a secret in an upstream result, in what the agent gets and in the record', async () => {
    const session = await openSession({ permissions: ['mcp:everything/*'] });
    const client = await agent(session);
    const result = await client.callTool({ name: 'everything__get-env', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result)).not.toContain(API_KEY_IN_UPSTREAM_ENV);
    expect(textOf(result)).toContain('[REDACTED:secrets:openai_key]');
    const recorded = await record(session.id);
    expect(recorded.tool_calls[0]).toMatchObject({ verdict: 'allowed' });
    expect(JSON.stringify(recorded)).not.toContain(API_KEY_IN_UPSTREAM_ENV);
    await close(session.id);
  });
});

describe('the MCP endpoint refuses what it must', () => {
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
  };
  const mcpPost = (path: string, token?: string) => {
    const req = t.request.post(path).set('Accept', 'application/json, text/event-stream').set('Content-Type', 'application/json');
    return token ? req.set('Authorization', `Bearer ${token}`) : req;
  };

  it('answers 401 with the protected-resource metadata for a missing or bad token, and 404 for another session', async () => {
    const session = await openSession({});
    const other = await openSession({});
    const path = new URL(session.mcp_url).pathname;
    for (const res of [await mcpPost(path).send(initialize), await mcpPost(path, 'sg_not-a-session-token').send(initialize)]) {
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(
        /^Bearer resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/api\/v1\/mcp\/sessions\//,
      );
      const metadataUrl = new URL(/resource_metadata="([^"]+)"/.exec(res.headers['www-authenticate'])![1]);
      const metadata = await t.request.get(metadataUrl.pathname);
      expect(metadata.body.resource).toBe(session.mcp_url);
    }
    expect((await mcpPost(path, other.token).send(initialize)).status).toBe(404);
    expect((await mcpPost(path, session.token).send(initialize)).status).toBe(200);
  });

  it('refuses calls once a session is closed, and enforces the call budget', async () => {
    const session = await openSession({ permissions: ['mcp:everything/*'], max_tool_calls: 1 });
    const client = await agent(session);
    expect((await client.callTool({ name: 'everything__echo', arguments: { message: 'one' } })).isError).toBeFalsy();
    const second = await client.callTool({ name: 'everything__echo', arguments: { message: 'two' } });
    expect(second.isError).toBe(true);
    expect(textOf(second)).toContain('tool_call_limit');
    await close(session.id);
    await expect(client.callTool({ name: 'everything__echo', arguments: { message: 'three' } })).rejects.toThrow(/403|ended/);
    const recorded = await record(session.id);
    expect(recorded.tool_calls.map((c: { verdict: string }) => c.verdict)).toEqual(['allowed', 'denied']);
  });

  it("counts a call a coding agent's pre hook allowed on the same session against its call budget", async () => {
    const session = await openSession({ permissions: ['mcp:everything/*'], max_tool_calls: 1 });
    const pre = await t.request
      .post('/api/v1/hooks/claude-code')
      .set('Authorization', `Bearer ${session.token}`)
      .send({
        session_id: 'run-1',
        cwd: '/work/shop',
        hook_event_name: 'PreToolUse',
        tool_name: 'mcp__everything__echo',
        tool_input: { message: 'by hook' },
        tool_use_id: 'toolu_budget',
      });
    expect(pre.body.hookSpecificOutput.permissionDecision).toBe('allow');
    const client = await agent(session);
    const call = await client.callTool({ name: 'everything__echo', arguments: { message: 'one' } });
    expect([call.isError, textOf(call)]).toEqual([true, expect.stringContaining('tool_call_limit')]);
  });

  it('refuses calls once a session expired or was cancelled, and ends an expired one', async () => {
    const expiring = await openSession({ permissions: ['mcp:everything/*'] });
    const cancelled = await openSession({ permissions: ['mcp:everything/*'] });
    const expiringAgent = await agent(expiring);
    const cancelledAgent = await agent(cancelled);
    await t.database
      .db('agent_sessions')
      .where({ execution_id: expiring.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect((await t.request.delete(`/api/v1/executions/${cancelled.id}`).set(operator.auth)).body.status).toBe('cancelled');
    await expect(expiringAgent.callTool({ name: 'everything__echo', arguments: { message: 'late' } })).rejects.toThrow(/403|ended/);
    await expect(cancelledAgent.callTool({ name: 'everything__echo', arguments: { message: 'late' } })).rejects.toThrow(/403|ended/);
    expect(await record(expiring.id)).toMatchObject({ status: 'completed', verdict: 'compliant', tool_calls: [] });
    expect(await record(cancelled.id)).toMatchObject({ status: 'cancelled', tool_calls: [] });
  });

  it('cuts an upstream that does not answer at 30 s: the agent gets an error result and the call is recorded as failed', async () => {
    const session = await openSession({ permissions: ['mcp:everything/*'] });
    const client = await agent(session);
    const started = Date.now();
    const result = await client.callTool(
      { name: 'everything__trigger-long-running-operation', arguments: { duration: 60, steps: 1 } },
      undefined,
      { timeout: 50_000 },
    );
    const seconds = (Date.now() - started) / 1000;
    expect(seconds).toBeGreaterThanOrEqual(29);
    expect(seconds).toBeLessThan(40);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/ERROR: upstream 'everything' failed: .*timed out/i);
    const recorded = await record(session.id);
    expect(recorded.tool_calls).toEqual([expect.objectContaining({ verdict: 'allowed', output: expect.stringMatching(/^ERROR: /) })]);
  }, 60_000);

  it('never shows the upstream headers in a response or a log line', async () => {
    // A session of its own, opened to exported, so the check has answers whatever ran before it.
    const own = bodies.length;
    const session = await openSession({ permissions: ['mcp:everything/*'] });
    const client = await agent(session);
    expect((await client.callTool({ name: 'everything__echo', arguments: { message: 'headers stay here' } })).isError).toBeFalsy();
    await record(session.id);
    await close(session.id);
    const exported = await t.request.get(`/api/v1/compliance/${session.id}/export`).set(operator.auth);
    bodies.push(exported.text);
    expect(bodies.length - own).toBe(4);
    for (const body of bodies) expect(body).not.toContain(UPSTREAM_SECRET);
    expect(t.logs.text()).not.toContain(UPSTREAM_SECRET);
  });
});
