/**
 * The least a hook endpoint can be (bench/hooks-lower-bound.ts), in its own process as shipgate's
 * bench server is: node:http and one pg connection, no authentication, policy, signature, log or
 * framework. A PreToolUse writes its call's row (when BARE_PRE_WRITES=1) with a commit that does
 * not wait for the flush, as shipgate opens a call; a PostToolUse writes the entry, its message
 * and a certificate-sized row in one statement whose commit waits for it, as shipgate records.
 */
import http from 'node:http';
import pg from 'pg';
import { BARE_ENVELOPE, BARE_RECORD } from './bare-record.js';

const OPEN = `WITH o AS (INSERT INTO bare_open (session, tool, arguments) VALUES ($1, $2, $3::jsonb) RETURNING id)
  SELECT id, set_config('synchronous_commit', 'off', true) FROM o`;

const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
await client.connect();
const preWrites = process.env.BARE_PRE_WRITES === '1';

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', async () => {
    const input = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    const values = [input.session_id, input.tool_name, JSON.stringify(input.tool_input)];
    let answer = '{}';
    if (input.hook_event_name === 'PreToolUse') {
      if (preWrites) await client.query({ name: 'open', text: OPEN, values });
      answer = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } });
    } else
      await client.query({ name: 'record', text: BARE_RECORD, values: [...values, JSON.stringify(input.tool_response), BARE_ENVELOPE] });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
    res.end(answer);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send?.({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}` }));
process.on('disconnect', () => {
  server.close();
  void client.end();
});
