import type { McpServer, McpServerRegistry } from './mcp-server-registry.js';
import type { McpToolPins } from './mcp-tool-pins.js';
import type { McpUpstreamClient } from './mcp-upstream-client.js';
import { toolDefinition } from './tool-definition.js';

/** How long registration waits for the upstream to list its tools before leaving the pinning to the first listing. */
export const PIN_AT_REGISTRATION_TIMEOUT_MS = 10_000;

export interface PinUpstreamToolsDeps {
  mcpServers: Pick<McpServerRegistry, 'upstreams'>;
  mcpUpstreamClient: McpUpstreamClient;
  mcpToolPins: Pick<McpToolPins, 'reconcile'>;
  warn(event: string, fields: Record<string, unknown>): void;
}

/**
 * Pins a just-registered upstream's tools as it lists them now, while the ADMIN who vouched for it
 * is at hand (docs/mcp-gateway.md, "Pinned tool definitions"). An upstream that cannot be listed
 * now is not refused: its first listing by a session pins instead (trust on first use, as for
 * servers registered before pinning), and the failure is logged. An upstream reached with a token
 * minted per session (`auth.github_app`) has no credentials outside a session, so it is pinned at
 * its first listing by a session, without a request at registration.
 */
export async function pinUpstreamTools(deps: PinUpstreamToolsDeps, server: McpServer): Promise<void> {
  if (server.auth?.github_app) return;
  try {
    const [upstream] = await deps.mcpServers.upstreams([server.name]);
    if (!upstream) return;
    const deadline = Date.now() + PIN_AT_REGISTRATION_TIMEOUT_MS;
    const remaining = () => Math.max(1, deadline - Date.now());
    const connection = await deps.mcpUpstreamClient.connect(upstream, remaining(), { onToolsChanged: () => undefined });
    try {
      const tools = await connection.listTools(remaining());
      await deps.mcpToolPins.reconcile(server.name, tools.map(toolDefinition));
    } finally {
      await connection.close();
    }
  } catch (error) {
    deps.warn('mcp.pin_at_registration_failed', { server: server.name, error: (error as Error).message });
  }
}
