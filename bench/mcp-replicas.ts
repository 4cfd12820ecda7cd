/**
 * The MCP gateway across replicas (docs/benchmarks.md): 50 agents, each an official SDK client
 * with its own governed session, calling the `echo` tool of @modelcontextprotocol/server-everything
 * back to back through two shipgate processes on one PostgreSQL behind a round-robin proxy (no
 * stickiness: each request goes to the other replica than the one before). Goal: >= 300 calls per
 * second through the gateway, no error, and every session's record gap-free (seq 1..n).
 *
 *   node bin/run-ts.js bench/mcp-replicas.ts
 */
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startEverythingUpstream } from '../test/mcp/support/everything-upstream.js';
import { startRoundRobinProxy } from '../test/mcp/support/round-robin-proxy.js';
import { runBench } from './lib/bench-database.js';
import { startWorkerBenchServer } from './lib/worker-bench-server.js';

const SESSIONS = 50;
/** Calls each agent makes in the measured part, back to back (and in the first, cold part, timed for scale). */
const CALLS_PER_SESSION = 40;
/**
 * Calls each agent makes between the cold part and the measured one, so each replica has served a
 * few thousand calls, as a gateway running for minutes has (docs/benchmarks.md, "Steady state").
 */
const STEADY_STATE_CALLS = 100;
export const MCP_REPLICAS_GOAL_CALLS_PER_SECOND = 300;

export interface McpReplicasRow {
  measure: string;
  value: string;
  goal: string;
}

async function postJson(url: string, body: unknown, auth: string): Promise<Record<string, unknown>> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${auth}` },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`POST ${url} answered ${res.status}: ${JSON.stringify(answer)}`);
  return answer;
}

/** The first failures seen, printed under the table (a bench of failures measures nothing). */
const failures: string[] = [];

/** `calls` echo calls back to back; counts the ones that failed (an error result or a thrown error). */
async function callMany(client: Client, calls: number): Promise<number> {
  let errors = 0;
  for (let i = 0; i < calls; i++) {
    const result = await client
      .callTool({ name: 'everything__echo', arguments: { message: `call ${i}` } })
      .catch((error: Error) => ({ isError: true, content: [{ type: 'text', text: error.message }] }));
    if (result.isError) {
      errors += 1;
      if (failures.length < 5) failures.push(JSON.stringify(result.content));
    }
  }
  return errors;
}

/** Every client making `calls` calls at once: how long they took and how many failed. */
async function callsAtOnce(clients: Client[], calls: number): Promise<{ seconds: number; errors: number }> {
  const started = performance.now();
  const errors = (await Promise.all(clients.map((c) => callMany(c, calls)))).reduce((a, b) => a + b, 0);
  return { seconds: (performance.now() - started) / 1000, errors };
}

/** Calls per second through two replicas with 50 sessions at once, the errors, and whether every session's seq is 1..n. */
export async function runMcpReplicasBench(): Promise<McpReplicasRow[]> {
  const server = await startWorkerBenchServer({ replicas: 2 });
  const upstream = await startEverythingUpstream();
  const proxy = await startRoundRobinProxy(server.urls);
  const clients: Client[] = [];
  try {
    const key = server.apiKey;
    await postJson(`${server.url}/api/v1/mcp/servers`, { name: 'everything', url: upstream.url }, key);
    await postJson(
      `${server.url}/api/v1/policies`,
      { name: 'bench-replicas', ceiling: ['mcp:everything/*'], output_rules: ['secrets'], max_tool_calls: 1000 },
      key,
    );
    const ids: string[] = [];
    for (let i = 0; i < SESSIONS; i++) {
      const session = await postJson(
        `${server.url}/api/v1/agent-sessions`,
        {
          name: `bench ${i}`,
          repo_root: 'acme/bench',
          compliance_policy: 'bench-replicas',
          servers: ['everything'],
          permissions: ['mcp:everything/echo'],
          max_tool_calls: 1000,
          expires_in_seconds: 3600,
        },
        key,
      );
      const client = new Client({ name: `bench-agent-${i}`, version: '1' });
      const path = new URL(session.mcp_url as string).pathname;
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${proxy.url}${path}`), {
          requestInit: { headers: { Authorization: `Bearer ${session.token}` } },
        }),
      );
      clients.push(client);
      ids.push(session.id as string);
    }
    const cold = await callsAtOnce(clients, CALLS_PER_SESSION);
    const warmUp = await callsAtOnce(clients, STEADY_STATE_CALLS);
    const measured = await callsAtOnce(clients, CALLS_PER_SESSION);
    const errors = cold.errors + warmUp.errors + measured.errors;
    const calls = SESSIONS * CALLS_PER_SESSION;
    const perSecond = calls / measured.seconds;
    const recorded = await server.database.db('tool_calls').whereIn('execution_id', ids).select('execution_id', 'seq');
    const seqs = new Map<string, number[]>(ids.map((id) => [id, []]));
    for (const row of recorded) seqs.get(row.execution_id)!.push(row.seq);
    const gapFree = [...seqs.values()].filter((s) => s.sort((a, b) => a - b).every((seq, i) => seq === i + 1)).length;
    const served = [0, 1].map((replica) => proxy.served.filter((r) => r === replica).length);
    const pass = perSecond >= MCP_REPLICAS_GOAL_CALLS_PER_SECOND && errors === 0 && gapFree === SESSIONS;
    const rate = (seconds: number) => `${(calls / seconds).toFixed(0)} calls/s (${calls} in ${seconds.toFixed(2)} s)`;
    return [
      {
        measure: `tools/call everything__echo, ${SESSIONS} sessions at once x ${CALLS_PER_SESSION} calls, two replicas, round robin, steady state`,
        value: rate(measured.seconds),
        goal: `${pass ? 'PASS' : 'FAIL'} (goal >= ${MCP_REPLICAS_GOAL_CALLS_PER_SECOND} calls/s, 0 errors, every seq gap-free)`,
      },
      { measure: `for scale: the first ${calls} calls after start (before the steady state)`, value: rate(cold.seconds), goal: '' },
      { measure: 'errors (all calls)', value: String(errors), goal: '' },
      { measure: 'sessions recorded gap-free (seq 1..n)', value: `${gapFree} of ${SESSIONS}`, goal: '' },
      { measure: 'requests the proxy sent to each replica', value: served.join(' / '), goal: '' },
    ];
  } finally {
    for (const client of clients) await client.close().catch(() => undefined);
    await proxy.close();
    await upstream.stop();
    await server.close();
  }
}

async function printMcpReplicasBench(): Promise<void> {
  console.log(`MCP gateway across two replicas (${SESSIONS} sessions at once behind a round-robin proxy)`);
  console.table(await runMcpReplicasBench());
  for (const failure of failures) console.log(`failed: ${failure}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runBench(printMcpReplicasBench);
