import { execFileSync } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mcpSessionExpiryTask } from '../../worker/mcp-session-expiry-task.js';
import type { TestApp, TestUser } from '../support/test-app.js';
import { mcpClient } from './support/everything-upstream.js';
import { startGateway, type GatewayFixture } from './support/gateway-fixture.js';

// docs/mcp-gateway.md, "Sessions and the commits they produced": a change that shrinks what a
// session covers re-posts the check runs it may have made green, once per change. The worker is
// off, so every request to re-post stays queued: the job's revision counts the requests.
let gateway: GatewayFixture;
let t: TestApp;
let operator: TestUser;
const clients: Client[] = [];
/** An open-world tool: its `network:*` is forbidden under hipaa, whose denied calls block. */
const FORBIDDEN_UNDER_HIPAA = { name: 'everything__gzip-file-as-resource', arguments: {} };

beforeAll(async () => {
  gateway = await startGateway();
  t = gateway.t;
  operator = await t.user('OPERATOR');
}, 60_000);

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await gateway?.stop();
});

/** How many times the re-posting of the session's covered check runs was asked for. */
async function reposts(sessionId: string): Promise<number> {
  const job = await t.database
    .db('graphile_worker.jobs')
    .where({ key: `github_session_recheck:${sessionId}` })
    .first<{ revision: number } | undefined>('revision');
  return job ? job.revision + 1 : 0;
}

async function openSession(body: Record<string, unknown> = {}) {
  const res = await t.request
    .post('/api/v1/agent-sessions')
    .set(operator.auth)
    .send({ name: 'Fix the flaky test', repo_root: 'acme/reposts', servers: ['everything'], ...body });
  expect(res.status).toBe(201);
  return res.body as { id: string; mcp_url: string; token: string };
}

async function agent(url: string, token: string): Promise<Client> {
  const client = await mcpClient(url, { Authorization: `Bearer ${token}` });
  clients.push(client);
  return client;
}

const close = (id: string) => t.request.post(`/api/v1/agent-sessions/${id}/close`).set(operator.auth);
const cancel = (id: string) => t.request.delete(`/api/v1/executions/${id}`).set(operator.auth);

describe('"coverage shrank, re-post the checks" fires once per change that shrinks it', () => {
  it('is asked for in one place: core/mcp/repost-covered-checks.ts', () => {
    const runtime = ['core', 'api', 'app', 'db', 'llm', 'net', 'server', 'worker'];
    const askers = execFileSync('git', ['grep', '-l', '--untracked', '-F', '.coverageChanged(', '--', ...runtime], { encoding: 'utf8' });
    expect(askers.split('\n').filter(Boolean)).toEqual(['core/mcp/repost-covered-checks.ts']);
  });

  it("a session's calls denied under a blocking policy: once, at the first; under a warning policy: never", async () => {
    const blocking = await openSession({ compliance_policy: 'hipaa' });
    const client = await agent(blocking.mcp_url, blocking.token);
    expect((await client.callTool(FORBIDDEN_UNDER_HIPAA)).isError).toBe(true);
    expect(await reposts(blocking.id)).toBe(1);
    expect((await client.callTool(FORBIDDEN_UNDER_HIPAA)).isError).toBe(true);
    expect(await reposts(blocking.id)).toBe(1);

    const warning = await openSession({ permissions: ['mcp:everything/echo'] });
    const warned = await agent(warning.mcp_url, warning.token);
    expect((await warned.callTool({ name: 'everything__get-env', arguments: {} })).isError).toBe(true);
    expect(await reposts(warning.id)).toBe(0);
  });

  it('closing a non-compliant session: once; closing or cancelling it again adds none, and a compliant close none at all', async () => {
    const session = await openSession({ compliance_policy: 'hipaa' });
    expect((await (await agent(session.mcp_url, session.token)).callTool(FORBIDDEN_UNDER_HIPAA)).isError).toBe(true);
    expect(await reposts(session.id)).toBe(1);
    expect((await close(session.id)).body).toMatchObject({ status: 'completed', verdict: 'non_compliant' });
    expect(await reposts(session.id)).toBe(2);
    expect((await close(session.id)).status).toBe(200);
    expect((await cancel(session.id)).body).toMatchObject({ status: 'completed' });
    expect(await reposts(session.id)).toBe(2);

    const compliant = await openSession();
    expect((await close(compliant.id)).body).toMatchObject({ verdict: 'compliant' });
    expect(await reposts(compliant.id)).toBe(0);
  });

  it('cancelling a running session (DELETE /executions/{id}): once; a repeated DELETE or a close after it adds none', async () => {
    const session = await openSession();
    expect((await cancel(session.id)).body).toMatchObject({ status: 'cancelled' });
    expect(await reposts(session.id)).toBe(1);
    expect((await cancel(session.id)).body).toMatchObject({ status: 'cancelled' });
    expect((await close(session.id)).status).toBe(200);
    expect(await reposts(session.id)).toBe(1);
  });

  it('a non-compliant session found expired at its next request: once; the expiry job after it adds none', async () => {
    const session = await openSession({ compliance_policy: 'hipaa' });
    const client = await agent(session.mcp_url, session.token);
    expect((await client.callTool(FORBIDDEN_UNDER_HIPAA)).isError).toBe(true);
    await t.database
      .db('agent_sessions')
      .where({ execution_id: session.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    await expect(client.callTool(FORBIDDEN_UNDER_HIPAA)).rejects.toThrow(/403|ended/);
    expect(await reposts(session.id)).toBe(2);
    const expiry = mcpSessionExpiryTask({ ...t.deps, now: () => new Date(), log: () => undefined });
    await expiry({}, {} as Parameters<typeof expiry>[1]);
    expect(await reposts(session.id)).toBe(2);
  });

  it("an agent key's MCP session ended by its DELETE ends its non-compliant session: once", async () => {
    const created = await t.request
      .post('/api/v1/agent-keys')
      .set(t.admin.auth)
      .send({ name: 'reposting-agent', repo_root: 'acme/reposts-key', compliance_policy: 'hipaa', servers: ['everything'] });
    expect(created.status).toBe(201);
    const client = await agent(created.body.mcp_url, created.body.key);
    expect((await client.callTool(FORBIDDEN_UNDER_HIPAA)).isError).toBe(true);
    const [session] = (await t.request.get('/api/v1/executions?limit=100').set(t.admin.auth)).body.filter(
      (e: { repo_root: string }) => e.repo_root === 'acme/reposts-key',
    );
    expect(await reposts(session.id)).toBe(1);
    await (client.transport as StreamableHTTPClientTransport).terminateSession();
    expect((await t.request.get(`/api/v1/executions/${session.id}`).set(t.admin.auth)).body).toMatchObject({ verdict: 'non_compliant' });
    expect(await reposts(session.id)).toBe(2);
  });
});
