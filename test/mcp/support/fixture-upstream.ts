import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { sendJson, startHttpServer } from '../../fakes/fake-http.js';

/** An upstream tool's answer: the content items of a `tools/call` result. */
export type FixtureContent = Record<string, unknown>[];

export interface FixtureUpstream {
  url: string;
  close(): Promise<void>;
}

/**
 * A real MCP server (the SDK's, over stateless Streamable HTTP) whose one tool, `read`
 * (read-only, closed-world), answers the content stored under the `name` it is given. For
 * results the reference server cannot produce (an embedded resource's base64 blob), holding
 * secrets the agent never sent, so a test can search the record for them.
 */
export async function startFixtureUpstream(answers: Record<string, FixtureContent>): Promise<FixtureUpstream> {
  function mcpServer(): Server {
    const server = new Server({ name: 'fixture', version: '1' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [
        {
          name: 'read',
          description: 'Answers the stored content of a name.',
          inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
        },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const name = String(request.params.arguments?.name);
      const content = answers[name];
      if (!content) return { content: [{ type: 'text', text: `no content named ${name}` }], isError: true };
      return { content: content as { type: 'text'; text: string }[] };
    });
    return server;
  }
  const http = await startHttpServer(async (req, res) => {
    if (req.method !== 'POST')
      return sendJson(res, 405, { jsonrpc: '2.0', error: { code: -32000, message: 'stateless: POST only' }, id: null });
    const server = mcpServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void transport.close().then(() => server.close()));
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  return { url: `${http.url}/mcp`, close: () => http.close() };
}
