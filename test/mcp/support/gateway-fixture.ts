import http from 'node:http';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { freePort, startEverythingUpstream, type EverythingUpstream } from './everything-upstream.js';

/** What the upstream `everything` is registered with: a header that must never come back out. */
export const UPSTREAM_SECRET = 'upstream-header-secret-5d8e1a';

export interface GatewayFixture {
  t: TestApp;
  /** shipgate's base URL (also its SHIPGATE_PUBLIC_URL). */
  url: string;
  upstream: EverythingUpstream;
  stop(): Promise<void>;
}

/**
 * shipgate listening on a real port (MCP clients speak HTTP to it) at its SHIPGATE_PUBLIC_URL,
 * with a real server-everything registered as the upstream `everything`. `appEnv` adds to shipgate's environment.
 */
export async function startGateway(upstreamEnv: Record<string, string> = {}, appEnv: Record<string, string> = {}): Promise<GatewayFixture> {
  const upstream = await startEverythingUpstream(upstreamEnv);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const t = await createTestApp({ SHIPGATE_PUBLIC_URL: url, ...appEnv });
  const server = http.createServer(t.app.callback());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const registered = await t.request
    .post('/api/v1/mcp/servers')
    .set(t.admin.auth)
    .send({ name: 'everything', url: upstream.url, headers: { Authorization: `Bearer ${UPSTREAM_SECRET}` } });
  if (registered.status !== 201) throw new Error(`registering the upstream failed: ${registered.status} ${registered.text}`);
  return {
    t,
    url,
    upstream,
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await t.close();
      await upstream.stop();
    },
  };
}
