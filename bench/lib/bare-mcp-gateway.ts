/**
 * The least an MCP gateway can be (bench/mcp-lower-bound.ts), in its own process as shipgate's
 * bench server is: node:http, a kept-open connection to the upstream and one pg connection; no
 * MCP SDK, authentication, policy, signature, redaction, log or framework. Every request is
 * passed through as it is; a `tools/call` first reads a session row (one round trip, as
 * shipgate's session read), has its tool's `<server>__` prefix removed, and its answer is written
 * with its message and a certificate-sized row in one statement whose commit waits for the flush
 * before the agent gets it (as shipgate records a call).
 */
import http from 'node:http';
import pg from 'pg';
import { BARE_ENVELOPE, BARE_RECORD } from './bare-record.js';

const upstream = new URL(process.env.BARE_UPSTREAM_URL!);
const agent = new http.Agent({ keepAlive: true });
const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
await client.connect();

const READ = 'SELECT id, calls FROM bare_sessions WHERE token = $1';

/** The upstream's answer to a request, whole. */
function forward(req: http.IncomingMessage, body: Buffer): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  const headers = { ...req.headers, host: upstream.host, 'content-length': String(body.length) };
  return new Promise((resolve, reject) => {
    const out = http.request(upstream, { method: req.method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    out.on('error', reject);
    out.end(body);
  });
}

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', async () => {
    let body = Buffer.concat(chunks);
    const message = req.method === 'POST' && body.length > 0 ? (JSON.parse(body.toString('utf8')) as Record<string, unknown>) : null;
    const call = message?.method === 'tools/call' ? (message.params as { name: string; arguments: unknown }) : null;
    if (call) {
      await client.query({ name: 'read', text: READ, values: ['bench-token'] });
      body = Buffer.from(JSON.stringify({ ...message, params: { ...call, name: call.name.replace(/^[^_]+__/, '') } }));
    }
    if (req.method === 'GET') {
      // The client's optional stream of server messages: none here.
      res.writeHead(405).end();
      return;
    }
    const answer = await forward(req, body);
    if (call) {
      const values = ['bench-session', call.name, JSON.stringify(call.arguments), answer.body.toString('utf8'), BARE_ENVELOPE];
      await client.query({ name: 'record', text: BARE_RECORD, values });
    }
    const { 'transfer-encoding': _chunked, connection: _connection, ...headers } = answer.headers;
    res.writeHead(answer.status, { ...headers, 'content-length': String(answer.body.length) });
    res.end(answer.body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send?.({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp` }));
process.on('disconnect', () => {
  server.close();
  agent.destroy();
  void client.end();
});
