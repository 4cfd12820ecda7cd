/**
 * A coding agent's hook decisions per tool call (docs/benchmarks.md, docs/agent-hooks.md): Claude
 * Code's PreToolUse + PostToolUse pair for one allowed shell call, posted to
 * /api/v1/hooks/claude-code the way its http hook posts them, against shipgate run as `npm start`
 * runs it (its own process, the job worker in it, PostgreSQL: DATABASE_URL's server, else the
 * run's embedded one). A pair opens the call (a commit that does not wait for the flush) and
 * records it with its certificate (a durable one): the goal is the pair at the median <= 2x the
 * floor of persisting a call (two durable commits, bench/governance.ts's measurement, on the
 * same database, taking turns with the calls). The pre hook is on the agent's critical path before every tool runs: its
 * median and p99 are reported, and a denied pre (recorded at once) beside it.
 *
 *   node bin/run-ts.js bench/hooks.ts
 */
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import { BENCH_COMMITS_TABLE, roundTripTimes } from './governance.js';
import { runBench } from './lib/bench-database.js';
import { startWorkerBenchServer } from './lib/worker-bench-server.js';
import { ms, percentile, sortedOf, type PerCallRow } from './lib/timing-stats.js';

/** Pairs before measuring, in the measured session (its first call opens it; connections, prepared statements). */
const WARM_UP = 30;
/**
 * Before those, pairs in sessions of their own until V8 has optimised the server's request path
 * as it has on a server running for minutes (docs/benchmarks.md, "Steady state"): a session takes
 * at most 1,000 calls, so several. The first pairs' figure after start is printed beside.
 */
const STEADY_STATE_SESSIONS = 4;
const STEADY_STATE_PAIRS = 500;
/** Measured pairs: ROUNDS turns of PAIRS_PER_TURN each, the floor's commits between turns. */
const ROUNDS = 3;
const PAIRS_PER_TURN = 100;
/** Denied pre hooks measured per turn. */
const DENIALS_PER_TURN = 20;
/** A pre + post pair at the median at most this multiple of the floor of persisting a call (two durable commits). */
export const HOOKS_GOAL_VS_COMMITS = 2;

export type HooksRow = PerCallRow;

/**
 * One connection kept open, as an agent's hook client reuses one. node:http, not fetch: fetch
 * costs this client 0.5-1 ms more per request on a loaded machine (docs/benchmarks.md), which
 * is the bench's own cost, not shipgate's, while the floor's commits go through a lean pg client.
 */
const connection = new http.Agent({ keepAlive: true, maxSockets: 1 });

export function postJson(url: string, body: unknown, auth: string): Promise<Record<string, unknown>> {
  const payload = JSON.stringify(body);
  const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), authorization: `Bearer ${auth}` };
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent: connection, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        if ((res.statusCode ?? 0) >= 300) return reject(new Error(`POST ${url} answered ${res.statusCode}: ${text}`));
        resolve(JSON.parse(text) as Record<string, unknown>);
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

let calls = 0;

/** Claude Code's hook input for a call of Bash. */
function claudeInput(event: 'PreToolUse' | 'PostToolUse', command: string, id: string) {
  return {
    session_id: 'bench-run',
    transcript_path: '/tmp/bench.jsonl',
    cwd: '/work/bench',
    permission_mode: 'default',
    hook_event_name: event,
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: id,
    ...(event === 'PostToolUse' ? { tool_response: { stdout: `${command}\n`, stderr: '', interrupted: false }, duration_ms: 3 } : {}),
  };
}

const decisionOf = (answer: Record<string, unknown>) =>
  (answer.hookSpecificOutput as { permissionDecision: string } | undefined)?.permissionDecision;

/** Times `pairs` pre + post pairs of allowed calls: each pair's time and its pre's. */
async function timedPairs(url: string, token: string, pairs: number) {
  const pair: number[] = [];
  const pre: number[] = [];
  for (let i = 0; i < pairs; i++) {
    const id = `toolu_bench_${++calls}`;
    const command = `echo ${calls}`;
    const started = performance.now();
    const answer = await postJson(url, claudeInput('PreToolUse', command, id), token);
    pre.push(performance.now() - started);
    if (decisionOf(answer) !== 'allow') throw new Error(`the pre hook did not allow: ${JSON.stringify(answer)}`);
    await postJson(url, claudeInput('PostToolUse', command, id), token);
    pair.push(performance.now() - started);
  }
  return { pair, pre };
}

/** Times `count` events shipgate has no opinion on (Stop): what the endpoint costs before any decision (auth, rate, parsing). */
async function timedNoOpinion(url: string, token: string, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await postJson(url, { session_id: 'bench-run', cwd: '/work/bench', hook_event_name: 'Stop' }, token);
    times.push(performance.now() - started);
  }
  return times;
}

/** Times `count` pre hooks the policy denies (each recorded at once). */
async function timedDenials(url: string, token: string, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const answer = await postJson(url, claudeInput('PreToolUse', 'git push --force origin main', `toolu_denied_${++calls}`), token);
    times.push(performance.now() - started);
    if (decisionOf(answer) !== 'deny') throw new Error(`the pre hook did not deny: ${JSON.stringify(answer)}`);
  }
  return times;
}

export async function runHooksBench(): Promise<HooksRow[]> {
  const server = await startWorkerBenchServer();
  const { database } = server;
  try {
    await database.db.raw(BENCH_COMMITS_TABLE);
    const base = server.url;
    const key = server.apiKey;
    await postJson(
      `${base}/api/v1/policies`,
      {
        name: 'bench-hooks',
        ceiling: ['shell:exec', 'fs:*', 'network:*', 'agent:spawn', 'tool:*'],
        output_rules: ['secrets'],
        max_tool_calls: 1000,
        tool_rules: [
          { match: { command: 'git push --force*' }, verdict: 'deny' },
          { match: { read: '.env*' }, verdict: 'deny' },
          { match: { host: '*.internal' }, verdict: 'deny' },
        ],
      },
      key,
    );
    const openSession = async () => {
      const session = await postJson(
        `${base}/api/v1/agent-sessions`,
        {
          name: 'bench',
          repo_root: 'acme/bench',
          compliance_policy: 'bench-hooks',
          servers: [],
          max_tool_calls: 1000,
          expires_in_seconds: 3600,
        },
        key,
      );
      return session.token as string;
    };
    const url = `${base}/api/v1/hooks/claude-code`;
    const first = await timedPairs(url, await openSession(), PAIRS_PER_TURN);
    for (let i = 0; i < STEADY_STATE_SESSIONS; i++) await timedPairs(url, await openSession(), STEADY_STATE_PAIRS);
    const token = await openSession();
    await timedPairs(url, token, WARM_UP);
    const samples = { pair: [] as number[], pre: [] as number[], denied: [] as number[], none: [] as number[] };
    const commit: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const { pair, pre } = await timedPairs(url, token, PAIRS_PER_TURN);
      samples.pair.push(...pair);
      samples.pre.push(...pre);
      samples.denied.push(...(await timedDenials(url, token, DENIALS_PER_TURN)));
      samples.none.push(...(await timedNoOpinion(url, token, DENIALS_PER_TURN)));
      // The floor in the same turns, so a change in the machine's load hits it alike.
      commit.push(...(await roundTripTimes(database.db)).commit);
    }
    return hooksRows(samples, commit, first.pair);
  } finally {
    await server.close();
  }
}

function hooksRows(
  samples: { pair: number[]; pre: number[]; denied: number[]; none: number[] },
  commits: number[],
  firstPairs: number[],
): HooksRow[] {
  const pair = sortedOf(samples.pair);
  const pre = sortedOf(samples.pre);
  const denied = sortedOf(samples.denied);
  const commit = sortedOf(commits);
  const floor = 2 * percentile(commit, 0.5);
  const ratio = percentile(pair, 0.5) / floor;
  const row = (measure: string, sorted: number[], goal = ''): HooksRow => ({
    measure,
    median_ms: ms(percentile(sorted, 0.5)),
    p99_ms: ms(percentile(sorted, 0.99)),
    goal,
  });
  return [
    row(
      `PRE + POST pair of an allowed Bash call (${pair.length} pairs, two HTTP requests)`,
      pair,
      `${ratio.toFixed(2)}x two commits: ${ratio <= HOOKS_GOAL_VS_COMMITS ? 'PASS' : 'FAIL'} (goal <= ${HOOKS_GOAL_VS_COMMITS}x)`,
    ),
    row('pre hook alone, allowed (on the critical path before the tool runs)', pre),
    row(`pre hook alone, denied by a tool rule and recorded (${denied.length} calls)`, denied),
    row('for scale: an event with no opinion (Stop): one HTTP request, its token and rate checked, parsed', sortedOf(samples.none)),
    row(
      `for scale: the first ${firstPairs.length} pairs after start (before the steady state)`,
      sortedOf(firstPairs),
      `${(percentile(sortedOf(firstPairs), 0.5) / floor).toFixed(2)}x two commits`,
    ),
    { measure: 'FLOOR of persisting a call: two durable commits', median_ms: ms(floor), p99_ms: null, goal: '' },
    row("one durable commit on the same database (1-row INSERT, the governance bench's floor)", commit),
  ];
}

async function printHooksBench(): Promise<void> {
  console.log(
    `Coding-agent hooks per tool call in the steady state (${ROUNDS} turns x ${PAIRS_PER_TURN} pairs after ` +
      `${PAIRS_PER_TURN + STEADY_STATE_SESSIONS * STEADY_STATE_PAIRS + WARM_UP} warm-up pairs)`,
  );
  console.table(await runHooksBench());
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runBench(printHooksBench);
