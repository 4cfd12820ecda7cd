import http from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startChangingUpstream, type ChangingUpstream } from './changing-upstream.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { freePort, mcpClient } from './everything-upstream.js';

/** shipgate listening, with an upstream `ask` whose `greet` needs `repo:write`, and the `asking` policy asking for it. */
export interface AskingGateway {
  t: TestApp;
  upstream: ChangingUpstream;
  /** A session under the `asking` policy (an ADMIN opens sessions). */
  agent(): Promise<{ id: string; client: Client }>;
  /** The SDK client of the MCP endpoint at `url` with `bearer`, closed after the file's tests. */
  connect(url: string, bearer: string): Promise<Client>;
  /** The held call of `session`, once the gateway shows it to approvers. */
  heldCall(session: string): Promise<Record<string, unknown>>;
  /** The tool-call certificate of `seq` in execution `id`: its predicate type and predicate. */
  predicate(id: string, seq: number): Promise<Record<string, unknown>>;
}

/** The asked-calls tests' shipgate (docs/mcp-gateway.md, "Asking a person"), started before and stopped after the file's tests. */
export function useAskingGateway(): AskingGateway {
  let shipgate: http.Server;
  const clients: Client[] = [];
  const gateway = {} as AskingGateway;

  beforeAll(async () => {
    gateway.upstream = await startChangingUpstream();
    const port = await freePort();
    const t = (gateway.t = await createTestApp({ SHIPGATE_PUBLIC_URL: `http://127.0.0.1:${port}` }));
    shipgate = http.createServer(t.app.callback());
    await new Promise<void>((resolve) => shipgate.listen(port, '127.0.0.1', resolve));
    await t.request
      .post('/api/v1/mcp/servers')
      .set(t.admin.auth)
      .send({ name: 'ask', url: gateway.upstream.url, tools: { greet: ['repo:write'] } })
      .expect(201);
    await t.request
      .post('/api/v1/policies')
      .set(t.admin.auth)
      .send({ name: 'asking', ceiling: ['mcp:ask/*', 'repo:write'], ask: ['repo:write'], ask_timeout_seconds: 5 })
      .expect(201);
  }, 60_000);

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    shipgate?.closeAllConnections();
    await new Promise((resolve) => shipgate?.close(resolve));
    await gateway.t?.close();
    await gateway.upstream?.close();
  });

  gateway.connect = async (url, bearer) => {
    const client = await mcpClient(url, { Authorization: `Bearer ${bearer}` });
    clients.push(client);
    return client;
  };

  gateway.agent = async () => {
    const res = await gateway.t.request
      .post('/api/v1/agent-sessions')
      .set(gateway.t.admin.auth)
      .send({
        name: 'asks',
        repo_root: 'acme/shop',
        servers: ['ask'],
        compliance_policy: 'asking',
        permissions: ['mcp:ask/*', 'repo:write'],
      });
    expect(res.status).toBe(201);
    return { id: res.body.id, client: await gateway.connect(res.body.mcp_url, res.body.token) };
  };

  gateway.heldCall = async (session) => {
    for (let i = 0; i < 50; i++) {
      const pending = (await gateway.t.request.get('/api/v1/agent-calls/pending').set(gateway.t.admin.auth).expect(200)).body as Record<
        string,
        unknown
      >[];
      const mine = pending.find((p) => p.execution_id === session);
      if (mine) return mine;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the call was never held');
  };

  gateway.predicate = async (id, seq) => {
    const execution = (await gateway.t.request.get(`/api/v1/executions/${id}`).set(gateway.t.admin.auth).expect(200)).body;
    const statements = (execution.certificates as { kind: string; envelope: { payload: string } }[])
      .filter((c) => c.kind === 'tool_call')
      .map(
        (c) =>
          JSON.parse(Buffer.from(c.envelope.payload, 'base64').toString('utf8')) as {
            predicateType: string;
            predicate: Record<string, unknown>;
          },
      );
    const found = statements.find((s) => s.predicate.seq === seq);
    return { type: found?.predicateType, ...found?.predicate };
  };

  return gateway;
}

export type CallResult = { isError?: boolean; content: unknown };
export const textOf = (result: CallResult) => (result.content as { text: string }[])[0].text;
