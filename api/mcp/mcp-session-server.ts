import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { GatewaySession } from '../../core/mcp/gateway-session.js';
import type { ReadState } from '../../core/mcp/session-call-queue.js';

/**
 * The MCP SDK's server for ONE MCP session: `tools/list` and `tools/call` in the protocol's
 * shapes, answered by the gateway session (core/mcp/gateway-session.ts), which decides what is
 * listed and how a call is verified, forwarded and recorded. The state read while a request was
 * authenticated reaches a call as the request's auth info (mcp-endpoint.ts), with where the call's
 * log fields go (its request's log line).
 */
export function createMcpSessionServer(session: GatewaySession): Server {
  const server = new Server({ name: 'shipgate', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (await session.tools()).map((t) => ({
      name: t.name,
      ...(t.tool.title ? { title: t.tool.title } : {}),
      description: t.tool.description ?? '',
      inputSchema: t.tool.inputSchema as { type: 'object' },
      ...(t.tool.annotations ? { annotations: t.tool.annotations } : {}),
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const read = extra.authInfo?.extra as (ReadState & { annotate?: (fields: Record<string, unknown>) => void }) | undefined;
    const result = await session.call({ name: request.params.name, arguments: request.params.arguments ?? {} }, read, read?.annotate);
    return result as { content: { type: 'text'; text: string }[]; isError: boolean };
  });
  return server;
}
