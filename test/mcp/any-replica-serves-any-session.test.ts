import { jest } from '@jest/globals';
import fs from 'node:fs';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { verifyPackage } from '../../core/certificates/verify-package.js';
import { sharedKeys } from '../executions/support/worker-process.js';
import { api, type ServiceUser } from '../operations/support/service-client.js';
import { runShipgate, tempDataDir, type ShipgateProcess } from '../support/run-shipgate.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { freePort, mcpClient, startEverythingUpstream, type EverythingUpstream } from './support/everything-upstream.js';
import { startRoundRobinProxy, type RoundRobinProxy } from './support/round-robin-proxy.js';

jest.setTimeout(180_000);

let database: TestDatabase;
let upstream: EverythingUpstream;
let proxy: RoundRobinProxy;
let admin: ServiceUser;
const replicas: { process: ShipgateProcess; url: string; dataDir: string }[] = [];

/** `shipgate serve --no-worker` on the shared database, its public URL the proxy's. */
async function startReplica(env: Record<string, string>): Promise<{ process: ShipgateProcess; url: string; dataDir: string }> {
  const dataDir = tempDataDir();
  const proc = runShipgate(['serve', '--no-worker'], { ...env, DATABASE_URL: database.url, SHIPGATE_DATA_DIR: dataDir, PORT: '0' });
  const url = await proc.printed(/shipgate is running at (http:\/\/127\.0\.0\.1:\d+)/, 60_000);
  return { process: proc, url, dataDir };
}

async function post(url: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.key}` },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`POST ${url}: ${res.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** A governed session allowed `everything__echo` 300 times, and an SDK client of it through the proxy. */
async function agent(name: string) {
  const session = await post(`${proxy.url}/api/v1/agent-sessions`, {
    name,
    repo_root: 'acme/replicas',
    compliance_policy: 'replicas',
    servers: ['everything'],
    permissions: ['mcp:everything/echo'],
    max_tool_calls: 300,
  });
  const client = await mcpClient(session.mcp_url as string, { Authorization: `Bearer ${session.token}` });
  return { id: session.id as string, token: session.token as string, mcpUrl: session.mcp_url as string, client };
}

const echo = (client: Awaited<ReturnType<typeof agent>>['client'], message: string) =>
  client.callTool({ name: 'everything__echo', arguments: { message } });

/** A raw `tools/call` of an MCP session to one replica, as the SDK's client sends it. */
function rawCall(replica: string, path: string, token: string, mcpSessionId: string): Promise<Response> {
  return fetch(`${replica}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-session-id': mcpSessionId,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 9001,
      method: 'tools/call',
      params: { name: 'everything__echo', arguments: { message: 'late' } },
    }),
  });
}

beforeAll(async () => {
  database = await createTestDatabase();
  upstream = await startEverythingUpstream();
  const proxyPort = await freePort();
  const env = { ...sharedKeys(), SHIPGATE_PUBLIC_URL: `http://127.0.0.1:${proxyPort}`, LOG_LEVEL: 'warn' };
  replicas.push(...(await Promise.all([startReplica(env), startReplica(env)])));
  proxy = await startRoundRobinProxy(
    replicas.map((r) => r.url),
    proxyPort,
  );
  admin = await api(replicas[0].url).register('replicas@example.com');
  await post(`${proxy.url}/api/v1/mcp/servers`, { name: 'everything', url: upstream.url });
  await post(`${proxy.url}/api/v1/policies`, {
    name: 'replicas',
    ceiling: ['mcp:everything/*'],
    output_rules: ['secrets'],
    max_tool_calls: 300,
  });
});

afterAll(async () => {
  await proxy?.close();
  for (const { process: proc, dataDir } of replicas) {
    await proc.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  await upstream?.stop();
  await database?.drop();
});

describe('any replica serves any MCP session (two processes, one database, a round-robin proxy)', () => {
  it('answers 200 calls alternating replicas, recorded as seq 1..200 in one valid certificate chain', async () => {
    const { id, client } = await agent('alternating');
    const from = proxy.served.length;
    for (let i = 1; i <= 200; i++) {
      const result = await echo(client, `call ${i}`);
      expect(result.isError).toBeFalsy();
      expect(result.content).toEqual([{ type: 'text', text: `Echo: call ${i}` }]);
    }
    // Every request of the MCP session went to the other replica than the one before.
    const turns = proxy.served.slice(from);
    expect(turns.length).toBeGreaterThanOrEqual(200);
    expect(turns.every((replica, i) => i === 0 || replica !== turns[i - 1])).toBe(true);

    await post(`${replicas[1].url}/api/v1/agent-sessions/${id}/close`, {});
    const execution = await admin.execution(id);
    expect(execution.tool_calls.map((c: { seq: number }) => c.seq)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    const exported = (await (await admin.get(`/api/v1/compliance/${id}/export`)).json()) as Record<string, unknown> & { public_keys: [] };
    expect(verifyPackage(exported, exported.public_keys)).toMatchObject({ ok: true, failures: [], certificatesChecked: 201 });
  });

  it('records calls made at once on both replicas with no gap and one chain', async () => {
    const { id, client } = await agent('at-once');
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => echo(client, `at once ${i}`)));
    for (const result of results) expect(result.isError).toBeFalsy();
    await post(`${replicas[0].url}/api/v1/agent-sessions/${id}/close`, {});
    const execution = await admin.execution(id);
    expect(execution.tool_calls.map((c: { seq: number }) => c.seq)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    const exported = (await (await admin.get(`/api/v1/compliance/${id}/export`)).json()) as Record<string, unknown> & { public_keys: [] };
    expect(verifyPackage(exported, exported.public_keys)).toMatchObject({ ok: true, certificatesChecked: 41 });
  });

  it('ends an MCP session on every replica at once: the next call on the other replica is refused', async () => {
    const { client, token, mcpUrl } = await agent('deleted');
    expect((await echo(client, 'before')).isError).toBeFalsy();
    const transport = client.transport as StreamableHTTPClientTransport;
    const mcpSessionId = transport.sessionId!;
    const path = new URL(mcpUrl).pathname;
    const ended = await fetch(`${replicas[0].url}${path}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}`, 'mcp-session-id': mcpSessionId },
    });
    expect(ended.status).toBe(200);
    const next = await rawCall(replicas[1].url, path, token, mcpSessionId);
    expect(next.status).toBe(404);
    expect(await next.json()).toMatchObject({ error: { message: 'Session not found' } });
  });

  it('refuses the next call on the other replica once the agent session is closed or cancelled on one', async () => {
    for (const end of ['close', 'cancel'] as const) {
      const { id, client, token, mcpUrl } = await agent(`ended by ${end}`);
      expect((await echo(client, 'before')).isError).toBeFalsy();
      const mcpSessionId = (client.transport as StreamableHTTPClientTransport).sessionId!;
      if (end === 'close') await post(`${replicas[0].url}/api/v1/agent-sessions/${id}/close`, {});
      else
        expect(
          (
            await fetch(`${replicas[0].url}/api/v1/executions/${id}`, {
              method: 'DELETE',
              headers: { authorization: `Bearer ${admin.key}` },
            })
          ).status,
        ).toBe(200);
      const next = await rawCall(replicas[1].url, new URL(mcpUrl).pathname, token, mcpSessionId);
      expect(next.status).toBe(403);
      expect(((await next.json()) as { detail: string }).detail).toMatch(/has ended/);
    }
  });
});
