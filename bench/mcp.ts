/**
 * The MCP gateway's cost per tool call (docs/benchmarks.md): the same `tools/call` (the `echo`
 * tool of @modelcontextprotocol/server-everything, over Streamable HTTP in its own process) made
 * directly to the upstream and through shipgate, each with the official SDK's client, in turns
 * in the same run. shipgate runs as `npm start` runs it (its own process, the job worker in it,
 * PostgreSQL: DATABASE_URL's server, else the run's embedded one); the agent session allows the
 * tool. Goal: (through - direct) at the median <= 3x the floor of persisting a call (two
 * durable commits, bench/governance.ts's measurement, on the same database, taking turns with
 * the calls), 1.5x the stretch goal reported beside it; p99 reported too, and the CPU
 * shipgate's process spends per call.
 *
 *   node bin/run-ts.js bench/mcp.ts
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startEverythingUpstream } from '../test/mcp/support/everything-upstream.js';
import { BENCH_COMMITS_TABLE, roundTripTimes } from './governance.js';
import { runBench } from './lib/bench-database.js';
import { startWorkerBenchServer } from './lib/worker-bench-server.js';
import { ms, percentile, sortedOf, type PerCallRow } from './lib/timing-stats.js';

/** Calls per client before measuring (JIT, connections, prepared statements). */
const WARM_UP = 50;
/**
 * Before those, calls in sessions of their own, each way, until V8 has optimised the server's
 * request path as it has on a server running for minutes (docs/benchmarks.md, "Steady state"):
 * a session takes at most 1,000 calls, so several. The first calls' figure is printed beside.
 */
const STEADY_STATE_SESSIONS = 3;
const STEADY_STATE_CALLS = 900;
/** Measured calls per client: ROUNDS turns of CALLS_PER_TURN each, direct and through alternating. */
const ROUNDS = 3;
const CALLS_PER_TURN = 100;
/** (through - direct) at the median at most this multiple of the floor of persisting a call (two durable commits). */
export const MCP_GOAL_VS_COMMITS = 3;
/** The stretch goal for the same ratio, reported beside the goal. */
export const MCP_STRETCH_GOAL_VS_COMMITS = 1.5;

export type McpRow = PerCallRow;

/** CPU time (user + system, ms) a process has used so far, from /proc (Linux); null elsewhere. */
function cpuMs(pid: number | undefined): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in USER_HZ (100 on Linux)
  } catch {
    return null;
  }
}

/**
 * The official SDK's client passes one AbortSignal to every fetch of a transport, and fetch adds a
 * listener to it per request that goes only when the request is collected: thousands of calls in a
 * row make Node warn of a leak, once per call past 1,500 (1,700 lines in one `npm run bench`). The
 * client's, not shipgate's (its upstream client uses node:http): that warning is not printed here.
 */
const printWarning = process.listeners('warning');
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.name === 'MaxListenersExceededWarning' && /abort listeners added to \[AbortSignal\]/.test(warning.message)) return;
  for (const print of printWarning) print(warning);
});

export async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'shipgate-bench-agent', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

/** Times `calls` sequential calls of `tool`; throws on any error result (a bench of failures measures nothing). */
export async function timedCalls(client: Client, tool: string, calls: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    const result = await client.callTool({ name: tool, arguments: { message: `bench ${i}` } });
    times.push(performance.now() - started);
    if (result.isError) throw new Error(`${tool} answered an error: ${JSON.stringify(result.content)}`);
  }
  return times;
}

async function postJson(url: string, body: unknown, auth?: string): Promise<Record<string, unknown>> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Bearer ${auth}` } : {}) },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`POST ${url} answered ${res.status}: ${JSON.stringify(answer)}`);
  return answer;
}

/** Direct and through-shipgate call times (ms), and the floor's commits measured on the same database. */
export async function runMcpBench(): Promise<McpRow[]> {
  const server = await startWorkerBenchServer();
  const { database } = server;
  const upstream = await startEverythingUpstream();
  const clients: Client[] = [];
  try {
    await database.db.raw(BENCH_COMMITS_TABLE);
    const base = server.url;
    const key = server.apiKey;
    await postJson(`${base}/api/v1/mcp/servers`, { name: 'everything', url: upstream.url }, key);
    // As the `default` preset, with room for every call of the run (the presets allow 50).
    await postJson(
      `${base}/api/v1/policies`,
      { name: 'bench-mcp', ceiling: ['mcp:everything/*'], output_rules: ['secrets'], max_tool_calls: 1000 },
      key,
    );
    const openThrough = async () => {
      const session = await postJson(
        `${base}/api/v1/agent-sessions`,
        {
          name: 'bench',
          repo_root: 'acme/bench',
          compliance_policy: 'bench-mcp',
          servers: ['everything'],
          permissions: ['mcp:everything/echo'],
          max_tool_calls: 1000,
          expires_in_seconds: 3600,
        },
        key,
      );
      const client = await connect(`${base}${new URL(session.mcp_url as string).pathname}`, { Authorization: `Bearer ${session.token}` });
      clients.push(client);
      return client;
    };
    const direct = await connect(upstream.url);
    clients.push(direct);
    const first = {
      direct: await timedCalls(direct, 'echo', CALLS_PER_TURN),
      through: await timedCalls(await openThrough(), 'everything__echo', CALLS_PER_TURN),
    };
    for (let i = 0; i < STEADY_STATE_SESSIONS; i++) {
      await timedCalls(direct, 'echo', STEADY_STATE_CALLS);
      await timedCalls(await openThrough(), 'everything__echo', STEADY_STATE_CALLS);
    }
    const through = await openThrough();
    await timedCalls(direct, 'echo', WARM_UP);
    await timedCalls(through, 'everything__echo', WARM_UP);
    const samples = { direct: [] as number[], through: [] as number[] };
    const commit: number[] = [];
    let serverCpu: number | null = 0;
    let upstreamCpu: number | null = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const upstreamBefore = cpuMs(upstream.process.child.pid);
      samples.direct.push(...(await timedCalls(direct, 'echo', CALLS_PER_TURN)));
      const upstreamAfter = cpuMs(upstream.process.child.pid);
      upstreamCpu =
        upstreamCpu !== null && upstreamBefore !== null && upstreamAfter !== null ? upstreamCpu + upstreamAfter - upstreamBefore : null;
      const before = cpuMs(server.pid);
      samples.through.push(...(await timedCalls(through, 'everything__echo', CALLS_PER_TURN)));
      const after = cpuMs(server.pid);
      serverCpu = serverCpu !== null && before !== null && after !== null ? serverCpu + after - before : null;
      // The floor in the same turns, so a change in the machine's load hits it alike.
      commit.push(...(await roundTripTimes(database.db)).commit);
    }
    const rows = mcpRows(samples, commit);
    rows.push(firstCallsRow(first, commit));
    if (serverCpu !== null) {
      rows.push({
        measure: "shipgate's own CPU per call through it (its process, /proc; PostgreSQL's not included)",
        median_ms: ms(serverCpu / samples.through.length),
        p99_ms: null,
        goal: '',
      });
    }
    if (upstreamCpu !== null) {
      rows.push({
        measure: "for scale: the upstream's own CPU per direct call (server-everything's process)",
        median_ms: ms(upstreamCpu / samples.direct.length),
        p99_ms: null,
        goal: '',
      });
    }
    return rows;
  } finally {
    for (const client of clients) await client.close().catch(() => undefined);
    await upstream.stop();
    await server.close();
  }
}

function mcpRows(samples: { direct: number[]; through: number[] }, commits: number[]): McpRow[] {
  const direct = sortedOf(samples.direct);
  const through = sortedOf(samples.through);
  const commit = sortedOf(commits);
  const overhead = percentile(through, 0.5) - percentile(direct, 0.5);
  const floor = 2 * percentile(commit, 0.5);
  const ratio = overhead / floor;
  const row = (measure: string, sorted: number[]): McpRow => ({
    measure,
    median_ms: ms(percentile(sorted, 0.5)),
    p99_ms: ms(percentile(sorted, 0.99)),
    goal: '',
  });
  return [
    row(`tools/call echo, directly to the upstream (${direct.length} calls)`, direct),
    row(`tools/call everything__echo, through shipgate (${through.length} calls)`, through),
    {
      measure: 'GATEWAY OVERHEAD: through - direct',
      median_ms: ms(overhead),
      p99_ms: ms(percentile(through, 0.99) - percentile(direct, 0.99)),
      goal:
        `${ratio.toFixed(2)}x two commits: ${ratio <= MCP_GOAL_VS_COMMITS ? 'PASS' : 'FAIL'} (goal <= ${MCP_GOAL_VS_COMMITS}x; ` +
        `stretch <= ${MCP_STRETCH_GOAL_VS_COMMITS}x: ${ratio <= MCP_STRETCH_GOAL_VS_COMMITS ? 'met' : 'not met'})`,
    },
    { measure: 'FLOOR of persisting a call: two durable commits', median_ms: ms(floor), p99_ms: null, goal: '' },
    row("one durable commit on the same database (1-row INSERT, the governance bench's floor)", commit),
  ];
}

/** The overhead over the server's first calls (each way, before the steady state), for scale. */
function firstCallsRow(first: { direct: number[]; through: number[] }, commits: number[]): McpRow {
  const overhead = percentile(sortedOf(first.through), 0.5) - percentile(sortedOf(first.direct), 0.5);
  const ratio = overhead / (2 * percentile(sortedOf(commits), 0.5));
  return {
    measure: `for scale: the overhead over the first ${first.through.length} calls after start (before the steady state)`,
    median_ms: ms(overhead),
    p99_ms: null,
    goal: `${ratio.toFixed(2)}x two commits`,
  };
}

async function printMcpBench(): Promise<void> {
  console.log(
    `MCP gateway per tool call in the steady state (${ROUNDS} turns x ${CALLS_PER_TURN} calls each way after ` +
      `${CALLS_PER_TURN + STEADY_STATE_SESSIONS * STEADY_STATE_CALLS + WARM_UP} warm-up calls)`,
  );
  console.table(await runMcpBench());
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runBench(printMcpBench);
