/**
 * What the hooks bench's goal leaves for shipgate (docs/benchmarks.md, "The hook pair's lower
 * bound"): bench/hooks.ts's pre + post pair, sent the same way (one kept-open connection), to the
 * least a hook endpoint can be (bench/lib/bare-hook-server.ts: one statement per hook, nothing
 * else), against the same floor of two durable commits in the same turns. Twice: with the pre
 * writing its call's row, as shipgate's must before the agent runs the call, and without. It
 * measures no shipgate code: `npm run bench` prints it beside the hooks bench, so each run shows
 * whether the goal is within reach of any endpoint on that machine.
 *
 *   node bin/run-ts.js bench/hooks-lower-bound.ts
 */
import { fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BENCH_COMMITS_TABLE, roundTripTimes } from './governance.js';
import { openBenchDatabase, runBench } from './lib/bench-database.js';
import { BARE_TABLES } from './lib/bare-record.js';
import { postJson } from './hooks.js';
import { ms, percentile, sortedOf } from './lib/timing-stats.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const WARM_UP = 2000;
const ROUNDS = 3;
const PAIRS_PER_TURN = 100;

async function measure(url: string, preWrites: boolean, floorOf: () => Promise<number[]>) {
  const child = fork(path.join(HERE, '../bin/run-ts.js'), [path.join(HERE, 'lib/bare-hook-server.ts')], {
    env: { ...process.env, DATABASE_URL: url, BARE_PRE_WRITES: preWrites ? '1' : '0' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const base = await new Promise<string>((resolve) => child.once('message', (m: { url: string }) => resolve(m.url)));
  const hook = `${base}/api/v1/hooks/claude-code`;
  const input = (event: string, n: number) => ({
    session_id: 'bench-run',
    cwd: '/work/bench',
    hook_event_name: event,
    tool_name: 'Bash',
    tool_input: { command: `echo ${n}` },
    tool_use_id: `toolu_${n}`,
    ...(event === 'PostToolUse' ? { tool_response: { stdout: `${n}\n`, stderr: '', interrupted: false }, duration_ms: 3 } : {}),
  });
  const pairs = async (count: number, into: number[] = []) => {
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      await postJson(hook, input('PreToolUse', i), 'bare');
      await postJson(hook, input('PostToolUse', i), 'bare');
      into.push(performance.now() - started);
    }
    return into;
  };
  try {
    await pairs(WARM_UP);
    const pair: number[] = [];
    const commit: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await pairs(PAIRS_PER_TURN, pair);
      commit.push(...(await floorOf()));
    }
    const floor = 2 * percentile(sortedOf(commit), 0.5);
    const median = percentile(sortedOf(pair), 0.5);
    return {
      measure: `bare pair, the pre ${preWrites ? 'writing its row' : 'writing nothing'}`,
      median_ms: ms(median),
      floor_ms: ms(floor),
      ratio: `${(median / floor).toFixed(2)}x two commits`,
    };
  } finally {
    child.disconnect();
  }
}

/** The bare pair, the pre writing its row and not, on a database of its own. */
export async function runHooksLowerBound() {
  const database = await openBenchDatabase();
  try {
    await database.db.raw(BENCH_COMMITS_TABLE);
    await database.db.raw(BARE_TABLES);
    const floorOf = async () => (await roundTripTimes(database.db)).commit;
    return [await measure(database.url, true, floorOf), await measure(database.url, false, floorOf)];
  } finally {
    await database.close();
  }
}

export const HOOKS_LOWER_BOUND_TITLE = 'The hook pair at its least, no shipgate code (docs/benchmarks.md), goal <= 2x two durable commits:';

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  await runBench(async () => {
    console.log(HOOKS_LOWER_BOUND_TITLE);
    console.table(await runHooksLowerBound());
  });
