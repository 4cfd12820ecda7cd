import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { hashApiKey } from '../../core/accounts/api-key.js';
import { startReplica, type Replica } from '../support/second-replica.js';
import type { TestApp } from '../support/test-app.js';
import { startGateway, type GatewayFixture } from './support/gateway-fixture.js';

/** The default cap of MCP sessions open at once per agent key and per agent session (SHIPGATE_MCP_MAX_SESSIONS). */
const DEFAULT_CAP = 8;

const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'limits-test', version: '1' } },
};

interface Answer {
  status: number;
  sessionId: string | null;
  retryAfter: string | null;
  body: unknown;
}

async function send(url: string, token: string, init: { method: string; sessionId?: string; body?: unknown }): Promise<Answer> {
  const res = await fetch(url, {
    method: init.method,
    headers: {
      ...MCP_HEADERS,
      authorization: `Bearer ${token}`,
      ...(init.sessionId ? { 'mcp-session-id': init.sessionId, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION } : {}),
    },
    body: init.body === undefined || typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
  });
  const text = await res.text();
  return {
    status: res.status,
    sessionId: res.headers.get('mcp-session-id'),
    retryAfter: res.headers.get('retry-after'),
    body: text && JSON.parse(text),
  };
}

const initialize = (url: string, token: string) => send(url, token, { method: 'POST', body: INITIALIZE });
const ping = (url: string, token: string, sessionId: string) =>
  send(url, token, { method: 'POST', sessionId, body: { jsonrpc: '2.0', id: 2, method: 'ping' } });
const endSession = (url: string, token: string, sessionId: string) => send(url, token, { method: 'DELETE', sessionId });

function expectRefused(answer: Answer, detail: RegExp): void {
  expect(answer.status).toBe(429);
  expect(answer.body).toEqual({ detail: expect.stringMatching(detail) });
  expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(answer.retryAfter)).toBeLessThanOrEqual(60);
}

async function createKey(t: TestApp, repo: string): Promise<{ id: string; key: string; mcpUrl: string }> {
  const res = await t.request
    .post('/api/v1/agent-keys')
    .set(t.admin.auth)
    .send({ name: 'limits', repo_root: repo, servers: ['everything'], permissions: ['mcp:everything/*'] });
  expect(res.status).toBe(201);
  return { id: res.body.id, key: res.body.key, mcpUrl: res.body.mcp_url };
}

async function openAgentSession(t: TestApp, repo: string): Promise<{ id: string; token: string; mcpUrl: string }> {
  const res = await t.request
    .post('/api/v1/agent-sessions')
    .set(t.admin.auth)
    .send({ name: 'limits', repo_root: repo, servers: ['everything'], permissions: ['mcp:everything/*'] });
  expect(res.status).toBe(201);
  return { id: res.body.id, token: res.body.token, mcpUrl: res.body.mcp_url };
}

async function statusOf(t: TestApp, executionId: string): Promise<string> {
  return (await t.database.db('executions').where({ id: executionId }).first('status')).status;
}

/** Listens on a loopback port; the URL of the MCP endpoint there. */
async function listen(replica: Replica): Promise<{ url: string; server: http.Server }> {
  const server = http.createServer(replica.app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/mcp`, server };
}

describe('the MCP endpoint caps open MCP sessions', () => {
  let gateway: GatewayFixture;
  let t: TestApp;
  let replica: Replica;
  let second: { url: string; server: http.Server };

  beforeAll(async () => {
    // No rate limit here: these tests are about the cap alone.
    const env = { SHIPGATE_MCP_RATE_LIMIT_PER_MINUTE: '0' };
    gateway = await startGateway({}, env);
    t = gateway.t;
    replica = await startReplica(t.database.url, { ...env, SHIPGATE_PUBLIC_URL: gateway.url });
    second = await listen(replica);
  }, 60_000);

  afterAll(async () => {
    second?.server.closeAllConnections();
    await new Promise((resolve) => second?.server.close(resolve));
    await replica?.close();
    await gateway?.stop();
  });

  it('1,000 initializes with one agent key, on two replicas, open at most the cap; the rest get 429 and open nothing', async () => {
    const { id: keyId, key, mcpUrl } = await createKey(t, 'acme/capped');
    const replicas = [mcpUrl, second.url];
    const answers: { url: string; answer: Answer }[] = [];
    // Ten batches of 100 at once, each spread over both replicas.
    for (let batch = 0; batch < 10; batch++) {
      const sent = Array.from({ length: 100 }, (_, i) => replicas[i % 2]);
      answers.push(...(await Promise.all(sent.map(async (url) => ({ url, answer: await initialize(url, key) })))));
    }

    const opened = answers.filter((a) => a.answer.status === 200);
    expect(opened).toHaveLength(DEFAULT_CAP);
    const refused = answers.filter((a) => a.answer.status !== 200);
    expect(refused).toHaveLength(1000 - DEFAULT_CAP);
    for (const { answer } of refused) expectRefused(answer, /agent key has 8 MCP sessions open/);
    const sessions = await t.database.db('agent_sessions').where({ agent_key_id: keyId }).select('execution_id');
    expect(sessions).toHaveLength(DEFAULT_CAP);
    const executions = await t.database
      .db('executions')
      .where({ kind: 'agent_session', repo_root: 'acme/capped' })
      .count<{ count: string }[]>();
    expect(Number(executions[0].count)).toBe(DEFAULT_CAP);
    for (const { url, answer } of opened) expect((await ping(url, key, answer.sessionId!)).status).toBe(200);

    // Ending one frees its slot before the DELETE is answered, on every replica.
    const [first] = opened;
    expect((await endSession(first.url, key, first.answer.sessionId!)).status).toBe(200);
    const other = replicas.find((url) => url !== first.url)!;
    const again = await initialize(other, key);
    expect(again.status).toBe(200);
    expect((await ping(other, key, again.sessionId!)).status).toBe(200);
    expectRefused(await initialize(first.url, key), /agent key has 8 MCP sessions open/);
    const running = await t.database
      .db('agent_sessions')
      .join('executions', 'executions.id', 'agent_sessions.execution_id')
      .where({ agent_key_id: keyId, status: 'running' })
      .count<{ count: string }[]>();
    expect(Number(running[0].count)).toBe(DEFAULT_CAP);
  }, 180_000);

  it('refuses a request nested past 100 levels as JSON-RPC, 422, before anything recurses over it (docs/operations.md)', async () => {
    const session = await openAgentSession(t, 'acme/deep-body');
    let nested: unknown = 'bottom';
    for (let i = 0; i < 1_000; i++) nested = [nested];
    const answer = await send(session.mcpUrl, session.token, {
      method: 'POST',
      body: { ...INITIALIZE, params: { ...INITIALIZE.params, nested } },
    });
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ jsonrpc: '2.0', error: { message: expect.stringMatching(/deeper than 100 levels/) } });
    expect(answer.sessionId).toBeNull();
  });

  it('refuses a request holding a number past the double range (1e400) as JSON-RPC, 422', async () => {
    const session = await openAgentSession(t, 'acme/big-number');
    const body = JSON.stringify(INITIALIZE).replace('"params":{', '"params":{"n":1e400,');
    const answer = await send(session.mcpUrl, session.token, { method: 'POST', body });
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ jsonrpc: '2.0', error: { message: expect.stringMatching(/beyond the double range/) } });
    expect(answer.sessionId).toBeNull();
  });

  it('caps the MCP sessions of one agent session token; a DELETE frees a slot', async () => {
    const session = await openAgentSession(t, 'acme/one-session');
    const answers = await Promise.all(Array.from({ length: 20 }, () => initialize(session.mcpUrl, session.token)));
    const opened = answers.filter((a) => a.status === 200);
    expect(opened).toHaveLength(DEFAULT_CAP);
    for (const answer of answers.filter((a) => a.status !== 200)) expectRefused(answer, /agent session has 8 MCP sessions open/);
    for (const answer of opened) expect((await ping(session.mcpUrl, session.token, answer.sessionId!)).status).toBe(200);

    expect((await endSession(session.mcpUrl, session.token, opened[0].sessionId!)).status).toBe(200);
    expect((await initialize(session.mcpUrl, session.token)).status).toBe(200);
    expectRefused(await initialize(session.mcpUrl, session.token), /agent session has 8 MCP sessions open/);
    // The agent session itself stays open: only its MCP sessions are capped.
    expect(await statusOf(t, session.id)).toBe('running');
  }, 60_000);

  it('ends an MCP session unused for two hours (its client went away without a DELETE): 404 to it, and its slot is free', async () => {
    const session = await openAgentSession(t, 'acme/abandoned');
    const opened = await Promise.all(Array.from({ length: DEFAULT_CAP }, () => initialize(session.mcpUrl, session.token)));
    for (const answer of opened) expect(answer.status).toBe(200);
    expectRefused(await initialize(session.mcpUrl, session.token), /agent session has 8 MCP sessions open/);
    const abandoned = opened[0].sessionId!;
    await t.database
      .db('mcp_sessions')
      .where({ id: abandoned })
      .update({ last_used_at: new Date(Date.now() - 2 * 60 * 60_000 - 1000) });
    expect((await ping(session.mcpUrl, session.token, abandoned)).status).toBe(404);
    expect((await ping(session.mcpUrl, session.token, opened[1].sessionId!)).status).toBe(200);
    expect((await initialize(session.mcpUrl, session.token)).status).toBe(200);
  }, 60_000);

  it('an initialize the SDK refuses (no Accept for event streams) holds no slot and leaves no session running', async () => {
    const { id: keyId, key, mcpUrl } = await createKey(t, 'acme/refused-initialize');
    for (let i = 0; i < DEFAULT_CAP + 2; i++) {
      const res = await fetch(mcpUrl, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify(INITIALIZE),
      });
      expect(res.status).toBe(406);
      await res.text();
    }
    expect((await initialize(mcpUrl, key)).status).toBe(200);
    const running = await t.database
      .db('agent_sessions')
      .join('executions', 'executions.id', 'agent_sessions.execution_id')
      .where({ agent_key_id: keyId, status: 'running' })
      .count<{ count: string }[]>();
    expect(Number(running[0].count)).toBe(1);
  }, 60_000);
});

describe('the MCP endpoint limits requests per token', () => {
  const PER_MINUTE = 5;
  let gateway: GatewayFixture;
  let t: TestApp;

  beforeAll(async () => {
    gateway = await startGateway({}, { SHIPGATE_MCP_RATE_LIMIT_PER_MINUTE: String(PER_MINUTE) });
    t = gateway.t;
  }, 60_000);

  afterAll(async () => {
    await gateway?.stop();
  });

  /** Pings until refused with at least 5 s left in the one-minute window, so what follows falls in the same window. */
  async function pingUntilRefused(url: string, token: string, sessionId: string): Promise<Answer> {
    for (;;) {
      const answer = await ping(url, token, sessionId);
      if (answer.status === 200) continue;
      expectRefused(answer, /Too many MCP requests with this token/);
      if (Number(answer.retryAfter) >= 5) return answer;
      await new Promise((resolve) => setTimeout(resolve, Number(answer.retryAfter) * 1000 + 100));
    }
  }

  it('answers 429 with Retry-After past the limit, still answers a DELETE, and names the bucket by the hash', async () => {
    const { id: keyId, key, mcpUrl } = await createKey(t, 'acme/limited');
    const opened = await initialize(mcpUrl, key);
    expect(opened.status).toBe(200);
    const agentSession = await t.database.db('agent_sessions').where({ agent_key_id: keyId }).first('execution_id');

    await pingUntilRefused(mcpUrl, key, opened.sessionId!);
    // Over the limit, the DELETE is answered and ends the governed session before its answer.
    expect((await endSession(mcpUrl, key, opened.sessionId!)).status).toBe(200);
    expect(await statusOf(t, agentSession.execution_id)).toBe('completed');
    // Still the same window: the DELETE was not refused because the window had passed.
    expectRefused(await initialize(mcpUrl, key), /Too many MCP requests with this token/);

    // Another token has a bucket of its own.
    const session = await openAgentSession(t, 'acme/limited');
    expect((await initialize(session.mcpUrl, session.token)).status).toBe(200);

    const buckets = (await t.database.db('rate_limits').select('bucket')).map((row: { bucket: string }) => row.bucket);
    expect(buckets).toContain(`mcp:${hashApiKey(key)}`);
    expect(buckets.join(' ')).not.toContain(key);
    expect(buckets.join(' ')).not.toContain(session.token);
  }, 120_000);

  it("counts a session token's requests with the read of its MCP session: 429 past the limit, a DELETE still answered", async () => {
    const session = await openAgentSession(t, 'acme/limited-token');
    const opened = await initialize(session.mcpUrl, session.token);
    expect(opened.status).toBe(200);
    const answer = await pingUntilRefused(session.mcpUrl, session.token, opened.sessionId!);
    expect(Number(answer.retryAfter)).toBeLessThanOrEqual(60);
    expect((await endSession(session.mcpUrl, session.token, opened.sessionId!)).status).toBe(200);
    const [{ count }] = await t.database
      .db('rate_limits')
      .where({ bucket: `mcp:${hashApiKey(session.token)}` })
      .sum('count as count');
    expect(Number(count)).toBeGreaterThan(PER_MINUTE);
  }, 120_000);
});
