import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { sendJson, startHttpServer } from '../../fakes/fake-http.js';

export interface ChangingUpstream {
  url: string;
  /** What the upstream lists: change it to play an upstream that changes its tools after registration. */
  tools: Tool[];
  close(): Promise<void>;
}

/** `greet`, read-only and closed-world, described as a reviewer would have approved it. */
export const greetTool = (description = 'Greets a person by name.'): Tool => ({
  name: 'greet',
  description,
  inputSchema: { type: 'object', properties: { who: { type: 'string' } }, required: ['who'] },
  annotations: { readOnlyHint: true, openWorldHint: false },
});

/**
 * A real MCP server (the SDK's, stateless Streamable HTTP) that lists whatever `tools` holds at
 * each request and answers every call `hello <who>`: an upstream whose tool definitions a test
 * changes after shipgate pinned them (docs/mcp-gateway.md, "Pinned tool definitions").
 */
export async function startChangingUpstream(): Promise<ChangingUpstream> {
  const upstream = { tools: [greetTool()] };
  const http = await startHttpServer(async (req, res) => {
    if (req.method !== 'POST') return sendJson(res, 405, { jsonrpc: '2.0', error: { code: -32000, message: 'POST only' }, id: null });
    const server = new Server({ name: 'changing', version: '1' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: upstream.tools }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => ({
      content: [{ type: 'text', text: `hello ${String(request.params.arguments?.who)}` }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void transport.close().then(() => server.close()));
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  return Object.assign(upstream, { url: `${http.url}/mcp`, close: () => http.close() });
}
