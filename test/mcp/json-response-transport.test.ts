import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { JsonResponseTransport } from '../../api/mcp/json-response-transport.js';

/** The SDK's Server over the gateway's transport, answering `tools/call` with its arguments' message. */
async function server(): Promise<JsonResponseTransport> {
  const sdk = new Server({ name: 'test', version: '1' }, { capabilities: { tools: {} } });
  sdk.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }));
  sdk.setRequestHandler(CallToolRequestSchema, async (request) => ({
    content: [{ type: 'text', text: String(request.params.arguments?.message) }],
  }));
  const transport = new JsonResponseTransport('session-1');
  await sdk.connect(transport);
  return transport;
}

const call = (id: number, message: string): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'echo', arguments: { message } },
});

describe("the gateway's JSON response transport (api/mcp/json-response-transport.ts)", () => {
  it("answers each request of a POST with the SDK server's response, in order; a notification gets none", async () => {
    const transport = await server();
    const answers = await transport.exchange([call(1, 'one'), { jsonrpc: '2.0', method: 'notifications/initialized' }, call(2, 'two')]);
    expect(answers).toEqual([
      { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'one' }] } },
      { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'two' }] } },
    ]);
    expect(await transport.exchange([{ jsonrpc: '2.0', method: 'notifications/initialized' }])).toEqual([]);
  });

  it('refuses a request whose id is already awaiting its answer, rather than hand it the first one', async () => {
    const transport = await server();
    const answers = await transport.exchange([call(7, 'first'), call(7, 'second')]);
    expect(answers[0]).toEqual({ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'first' }] } });
    expect(answers[1]).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32600, message: 'Invalid Request: this id is in use' } });
  });

  it('answers at once, saying so, once the MCP session is let go on this server', async () => {
    const transport = await server();
    await transport.close();
    expect(await transport.exchange([call(3, 'late')])).toEqual([
      { jsonrpc: '2.0', id: 3, error: { code: -32001, message: 'The MCP session ended on this server; send the request again.' } },
    ]);
  });
});
