import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MAX_UPSTREAM_MESSAGE_CHARS, NodeHttpMcpTransport } from '../../net/node-http-mcp-transport.js';
import { readBody, startHttpServer, type FakeHttpServer } from '../fakes/fake-http.js';

// docs/mcp-gateway.md, "Limits": an upstream's answers are read within bounds. Before, a 100 MB result was passed on
// whole (the event loop held for seconds), and a stream event that never ended grew without bound, each chunk
// searching all of it again: the server froze for eleven minutes.

let upstream: FakeHttpServer;
let behave: (req: IncomingMessage, res: ServerResponse) => void;
const seen: string[] = [];
const closedStreams: string[] = [];

beforeAll(async () => {
  upstream = await startHttpServer(async (req, res) => {
    if (req.method === 'POST') await readBody(req);
    seen.push(req.method ?? '');
    res.once('close', () => closedStreams.push(req.method ?? ''));
    behave(req, res);
  });
});
afterAll(() => upstream.close());
beforeEach(() => {
  seen.length = 0;
  closedStreams.length = 0;
});

const call: JSONRPCMessage = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read', arguments: {} } };
const transport = () => new NodeHttpMcpTransport(new URL(`${upstream.url}/mcp`), async () => ({}));
const until = async (done: () => boolean) => {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
};

it('refuses a JSON answer larger than the bound, closing its connection', async () => {
  behave = (_, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"${'x'.repeat(MAX_UPSTREAM_MESSAGE_CHARS)}"}]}}`);
  };
  const client = transport();
  await expect(client.send(call)).rejects.toThrow(/larger than 4 MiB/);
  await client.close();
});

it('cuts a stream whose event grows past the bound without ending, and reports it', async () => {
  let written = 0;
  behave = (_, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = `data: ${'x'.repeat(64 * 1024)}`;
    const more = () => {
      while (!res.destroyed && written <= 2 * MAX_UPSTREAM_MESSAGE_CHARS && res.write(chunk)) written += chunk.length;
      if (!res.destroyed && written <= 2 * MAX_UPSTREAM_MESSAGE_CHARS) res.once('drain', more);
    };
    more();
  };
  const client = transport();
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.send(call);
  await until(() => errors.length > 0);
  expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(/larger than 4 MiB/)]);
  await until(() => closedStreams.length > 0);
  expect(closedStreams).toEqual(['POST']);
  expect(written).toBeLessThan(2 * MAX_UPSTREAM_MESSAGE_CHARS);
  await client.close();
});

it('still delivers events split across chunks, the blank line between them split too', async () => {
  behave = (_, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: {"jsonrpc":"2.0","id":1,"result":{"content":[]}}\r\n');
    setTimeout(() => res.end('\r\ndata: {"jsonrpc":"2.0","method":"notifications/tools/list_changed"}\n\n'), 50);
  };
  const client = transport();
  const messages: unknown[] = [];
  client.onmessage = (message) => messages.push(message);
  await client.send(call);
  await until(() => messages.length === 2);
  expect(messages).toEqual([
    { jsonrpc: '2.0', id: 1, result: { content: [] } },
    { jsonrpc: '2.0', method: 'notifications/tools/list_changed' },
  ]);
  await client.close();
});

it('asks for the notification stream after initialization when the upstream answers 202, as the specification has it', async () => {
  behave = (req, res) => {
    if (req.method === 'GET') res.writeHead(200, { 'content-type': 'text/event-stream' }).write(': open\n\n');
    else res.writeHead(202).end();
  };
  const client = transport();
  await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  await until(() => seen.includes('GET'));
  expect(seen).toEqual(['POST', 'GET']);
  await client.close();
});
