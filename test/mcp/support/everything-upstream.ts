import { createServer } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { runNode, type ShipgateProcess } from '../../support/run-shipgate.js';

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface EverythingUpstream {
  url: string;
  process: ShipgateProcess;
  stop(): Promise<void>;
}

/**
 * The MCP project's reference server (`@modelcontextprotocol/server-everything`) over
 * Streamable HTTP, as a real upstream; `env` becomes its environment (its `get-env` tool returns it).
 */
export async function startEverythingUpstream(env: Record<string, string> = {}): Promise<EverythingUpstream> {
  const port = await freePort();
  const child = runNode(['node_modules/@modelcontextprotocol/server-everything/dist/index.js', 'streamableHttp'], {
    ...env,
    PORT: String(port),
  });
  await child.printed('listening on port', 30_000);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    process: child,
    async stop() {
      child.child.kill('SIGTERM');
      await child.exited;
    },
  };
}

/** An SDK client connected to `url` with the given headers. */
export async function mcpClient(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'shipgate-test-agent', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}
