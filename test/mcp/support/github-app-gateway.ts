import http from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Response } from 'supertest';
import { startFakeGitHub, type FakeGitHub } from '../../fakes/fake-github-server.js';
import { sendJson, startHttpServer } from '../../fakes/fake-http.js';
import { appEnv, appPrivateKey } from '../../support/github-deliveries.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { freePort, mcpClient } from './everything-upstream.js';

/**
 * shipgate listening as the fake GitHub's App, beside a real MCP server (the SDK's, stateless) that takes only a
 * minted installation token (`Bearer ghs_…`) and answers each request with the server `mcpFor` builds for its
 * Authorization header (docs/mcp-gateway.md, "Least-privilege upstream credentials").
 */
export interface GitHubAppGateway {
  t: TestApp;
  gh: FakeGitHub;
  upstreamUrl: string;
  /** The Authorization header of every request the upstream received. */
  received: string[];
  /** Every response `noted` saw, to look for a token in. */
  responses: Response[];
  noted(pending: PromiseLike<Response>): Promise<Response>;
  /** An agent session (an ADMIN opens it) on `repo` with the upstream `server`, and its SDK client. */
  session(repo: string, server: string): Promise<{ id: string; client: Client }>;
}

export function useGitHubAppGateway(installation: number, mcpFor: (authorization: string) => Server): GitHubAppGateway {
  let server: http.Server;
  let upstream: { close(): Promise<void> };
  const clients: Client[] = [];
  const gateway = { received: [], responses: [] as Response[] } as unknown as GitHubAppGateway;

  beforeAll(async () => {
    gateway.gh = await startFakeGitHub();
    gateway.gh.app.installations.set('acme/api', installation);
    upstream = await startHttpServer(async (req, res) => {
      const authorization = req.headers.authorization ?? '';
      gateway.received.push(authorization);
      if (req.method !== 'POST') return sendJson(res, 405, { jsonrpc: '2.0', error: { code: -32000, message: 'POST only' }, id: null });
      if (!authorization.startsWith('Bearer ghs_')) return sendJson(res, 401, { error: 'invalid_token' });
      const s = mcpFor(authorization);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => void transport.close().then(() => s.close()));
      await s.connect(transport);
      await transport.handleRequest(req, res);
    }).then((listening) => {
      gateway.upstreamUrl = `${listening.url}/mcp`;
      return listening;
    });
    const port = await freePort();
    gateway.t = await createTestApp({
      ...appEnv(gateway.gh, `credentials-secret-${installation}`, appPrivateKey()),
      SHIPGATE_PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'trace',
    });
    server = http.createServer(gateway.t.app.callback());
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  }, 60_000);

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await gateway.t?.close();
    await upstream?.close();
    await gateway.gh?.close();
  });

  gateway.noted = async (pending) => {
    const res = await pending;
    gateway.responses.push(res);
    return res;
  };

  gateway.session = async (repo, upstreamName) => {
    const res = await gateway.noted(
      gateway.t.request
        .post('/api/v1/agent-sessions')
        .set(gateway.t.admin.auth)
        .send({ name: 'least privilege', repo_root: repo, servers: [upstreamName], permissions: [`mcp:${upstreamName}/*`] }),
    );
    expect(res.status).toBe(201);
    const client = await mcpClient(res.body.mcp_url, { Authorization: `Bearer ${res.body.token}` });
    clients.push(client);
    return { id: res.body.id, client };
  };

  return gateway;
}
