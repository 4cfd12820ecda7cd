/**
 * What the MCP bench's goal leaves for shipgate (docs/benchmarks.md, "The MCP gateway's lower
 * bound"): bench/mcp.ts's `tools/call` of server-everything's `echo`, with the official SDK's
 * client, directly and through the least an MCP gateway can be (bench/lib/bare-mcp-gateway.ts:
 * the session read and the call's durable record, nothing else), in turns, against the same floor
 * of two durable commits. It measures no shipgate code: `npm run bench` prints it beside the MCP
 * bench, so each run shows whether the goal is within reach of any gateway on that machine.
 *
 *   node bin/run-ts.js bench/mcp-lower-bound.ts
 */
import { fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startEverythingUpstream } from '../test/mcp/support/everything-upstream.js';
import { BENCH_COMMITS_TABLE, roundTripTimes } from './governance.js';
import { openBenchDatabase, runBench } from './lib/bench-database.js';
import { BARE_TABLES } from './lib/bare-record.js';
import { connect, timedCalls } from './mcp.js';
import { ms, percentile, sortedOf } from './lib/timing-stats.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const WARM_UP = 2000;
const ROUNDS = 3;
const CALLS_PER_TURN = 100;

/** The bare gateway's overhead per call, on a database of its own. */
export async function runMcpLowerBound() {
  const database = await openBenchDatabase();
  const upstream = await startEverythingUpstream();
  const gateway = fork(path.join(HERE, '../bin/run-ts.js'), [path.join(HERE, 'lib/bare-mcp-gateway.ts')], {
    env: { ...process.env, DATABASE_URL: database.url, BARE_UPSTREAM_URL: upstream.url },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    await database.db.raw(BENCH_COMMITS_TABLE);
    await database.db.raw(BARE_TABLES);
    const through = await new Promise<string>((resolve) => gateway.once('message', (m: { url: string }) => resolve(m.url)));
    const direct = await connect(upstream.url);
    const bare = await connect(through);
    await timedCalls(direct, 'echo', WARM_UP);
    await timedCalls(bare, 'everything__echo', WARM_UP);
    const samples = { direct: [] as number[], through: [] as number[], commit: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      samples.direct.push(...(await timedCalls(direct, 'echo', CALLS_PER_TURN)));
      samples.through.push(...(await timedCalls(bare, 'everything__echo', CALLS_PER_TURN)));
      samples.commit.push(...(await roundTripTimes(database.db)).commit);
    }
    await direct.close();
    await bare.close();
    const median = (values: number[]) => percentile(sortedOf(values), 0.5);
    const overhead = median(samples.through) - median(samples.direct);
    const floor = 2 * median(samples.commit);
    return [
      { measure: 'tools/call echo, directly', median_ms: ms(median(samples.direct)) },
      { measure: 'tools/call everything__echo, through the bare gateway', median_ms: ms(median(samples.through)) },
      { measure: 'OVERHEAD: through - direct', median_ms: ms(overhead), ratio: `${(overhead / floor).toFixed(2)}x two commits` },
      { measure: 'FLOOR: two durable commits', median_ms: ms(floor) },
    ];
  } finally {
    gateway.disconnect();
    await upstream.stop();
    await database.close();
  }
}

export const MCP_LOWER_BOUND_TITLE =
  "The MCP gateway's overhead at its least, no shipgate code (docs/benchmarks.md), goal <= 3x two durable commits:";

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  await runBench(async () => {
    console.log(MCP_LOWER_BOUND_TITLE);
    console.table(await runMcpLowerBound());
  });
