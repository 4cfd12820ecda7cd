/**
 * Governance overhead per tool call (docs/benchmarks.md): the same agent loop run with a fake provider
 * that always calls a no-op in-process tool, with governance (verify + certify) on and off, each on an
 * in-memory journal and on the PostgreSQL journal, plus the governed PostgreSQL loop with the tool
 * declared as reaching outside the process (its turn is then written on its own first). One
 * iteration = one provider turn + one tool call; its time is the gap between two provider requests.
 *
 * The goal applies to "verify + certify + persist": the governed loop on the PostgreSQL journal
 * above the loop with neither governance nor a database, at most 1.5x the floor of persisting a
 * call (two durable commits on the same pool, measured in the same run). The table splits it
 * into persisting the step and governance proper, and shows the floor of one round trip and of
 * one durable commit on the same pool.
 *
 *   node bin/run-ts.js bench/governance.ts     (PostgreSQL: DATABASE_URL's server, else an embedded one)
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
import { z } from 'zod';
import { GOVERNED, type Governance } from '../core/agent/governance.js';
import type { ExecutionJournal, RunState } from '../core/agent/journal.js';
import type { Provider, ProviderRequest, ProviderResponse } from '../core/agent/provider.js';
import { runExecution } from '../core/agent/run-execution.js';
import type { RuntimeDeps } from '../core/agent/runtime-deps.js';
import { defineTool, type Tool } from '../core/agent/tools/tool.js';
import { policyRef } from '../core/policies/policy-digest.js';
import { createCertifier } from '../core/certificates/create-certifier.js';
import { createSigner } from '../core/certificates/create-signer.js';
import { builtInPolicy } from '../core/policies/built-in-policies.js';
import type { Policy } from '../core/policies/policy.js';
import { createExecutionJournal } from '../db/stores/agent/postgres-execution-journal.js';
import { createExecutionStore } from '../db/stores/executions/postgres-execution-store.js';
import { testExecution } from '../test/agent/support/agent-harness.js';
import { MemoryJournal } from '../test/support/memory-journal.js';
import { openBenchDatabase, runBench, type BenchDatabase } from './lib/bench-database.js';
import { publicWeb } from '../net/guarded-public-web.js';
import { ms, percentile } from './lib/timing-stats.js';

const CALLS_PER_RUN = 200;
const ROUNDS = 5;
/** Governance overhead per call at most this multiple of the floor of persisting a call (two durable commits). */
const GOAL_VS_COMMITS = 1.5;
/** The table the floor's durable commits insert into (roundTripTimes). */
export const BENCH_COMMITS_TABLE = 'CREATE TABLE bench_commits (n integer)';

/** An in-process tool (as write_report): its turn is recorded in the same write as the call. */
const noop = defineTool({
  name: 'noop',
  description: 'does nothing',
  capability: 'bench:noop',
  inProcess: true,
  schema: z.strictObject({ n: z.number().int() }),
  run: async ({ n }) => ({ output: `ok ${n}` }),
});

/** The same no-op declared as reaching outside the process (as http_get): its turn is recorded first, on its own. */
const outsideNoop: Tool = { ...noop, inProcess: false };

/** Governance off: the tool is looked up and its arguments parsed, nothing is checked or certified. */
const UNGOVERNED: Governance = {
  certify: false,
  async verify(call, ctx) {
    const tool = ctx.tools.get(call.name)!;
    const args = JSON.parse(call.arguments);
    return { verdict: 'allowed', tool, arguments: args, input: args, properties: [] };
  },
};

/** Calls the no-op tool `calls` times, one call per turn, then answers; notes when each request arrives. */
function loopingProvider(calls: number, arrivals: number[]): Provider {
  let turn = 0;
  return {
    name: 'openai',
    async complete(_request: ProviderRequest): Promise<ProviderResponse> {
      arrivals.push(performance.now());
      turn += 1;
      const usage = { inputTokens: 1000, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 };
      if (turn > calls) return { text: 'done', toolCalls: [], usage, stopReason: 'stop' };
      return {
        text: null,
        toolCalls: [{ id: `call_${turn}`, name: 'noop', arguments: JSON.stringify({ n: turn }) }],
        usage,
        stopReason: 'tool_calls',
      };
    },
  };
}

/** The built-in `default` preset, with room for every call of a run. */
const benchPolicy: Policy = { ...builtInPolicy('default')!, max_tool_calls: CALLS_PER_RUN + 1 };

/** Where a mode's runs are recorded: seeds one queued execution per run. */
interface BenchJournal {
  journal: ExecutionJournal;
  seed(policy: Policy): Promise<string>;
}

function memoryBenchJournal(): BenchJournal {
  const journal = new MemoryJournal();
  return {
    journal,
    async seed(policy) {
      const state: RunState = {
        policy,
        transcript: [],
        upstreamArtifacts: [],
        upstreamCertificateDigests: [],
        execution: testExecution(policy, { task: 'bench', permissions: ['*'], budget_cents: 1_000_000, model: 'bench-free' }),
      };
      return journal.add(state);
    },
  };
}

/** The production journal, on the bench's fresh database. */
function postgresBenchJournal(database: BenchDatabase): BenchJournal {
  const secretKey = randomBytes(32);
  const executions = createExecutionStore(database.db, secretKey);
  let ownerId: string | undefined;
  return {
    journal: createExecutionJournal(database.db, secretKey, { get: async () => benchPolicy }),
    async seed(policy) {
      ownerId ??= (
        await database
          .db('users')
          .insert({ email: 'bench@example.com', name: 'bench', role: 'OPERATOR', password_hash: 'unused' })
          .returning('id')
      )[0].id;
      const execution = await executions.create(
        {
          owner_id: ownerId!,
          task: 'bench',
          policy: policyRef(policy),
          stage_role: 'worker',
          permissions: ['*'],
          dropped_permissions: [],
          budget_cents: 1_000_000,
          provider: 'openai',
          model: 'bench-free',
        },
        { enqueue: false },
      );
      return execution.id;
    },
  };
}

interface Mode {
  name: string;
  governance: Governance;
  store: BenchJournal;
  tool: Tool;
}

async function iterationTimes(mode: Mode): Promise<number[]> {
  const arrivals: number[] = [];
  const id = await mode.store.seed(benchPolicy);
  const deps: RuntimeDeps = {
    journal: mode.store.journal,
    providers: () => loopingProvider(CALLS_PER_RUN, arrivals),
    certifier: createCertifier(createSigner(generateKeyPairSync('ed25519').privateKey)),
    prices: { 'bench-free': { input: 0, output: 0 } },
    pricesHint: 'bench',
    httpAllowlist: [],
    web: publicWeb,
    cancelPollMs: 60_000,
    tools: [mode.tool],
    log: () => undefined,
  };
  await runExecution(deps, id, mode.governance);
  return arrivals.slice(1).map((t, i) => t - arrivals[i]);
}

/**
 * The floor of persisting anything on this machine, sent the way the journal sends its steps
 * (a named statement through pg on a connection of the same pool): one round trip (SELECT 1)
 * and one durable commit (a one-row INSERT, waiting for its WAL flush as a tool call's step does).
 * The floor of persisting a call is two such commits. Needs `bench_commits` (BENCH_COMMITS_TABLE);
 * bench/mcp.ts measures its goal against the same floor.
 */
export async function roundTripTimes(db: Knex): Promise<{ roundTrip: number[]; commit: number[] }> {
  const roundTrip: number[] = [];
  const commit: number[] = [];
  const timed = async (into: number[], name: string, text: string, values: unknown[]) => {
    const started = performance.now();
    const connection = await db.client.acquireConnection();
    try {
      await connection.query({ name, text, values });
    } finally {
      await db.client.releaseConnection(connection);
    }
    into.push(performance.now() - started);
  };
  for (let i = 0; i < CALLS_PER_RUN; i++) {
    await timed(roundTrip, 'bench_select_1', 'SELECT 1', []);
    await timed(commit, 'bench_commit', 'INSERT INTO bench_commits (n) VALUES ($1)', [i]);
  }
  return { roundTrip, commit };
}

export interface GovernanceRow {
  measure: string;
  median_ms: number;
  p90_ms: number | null;
  goal: string;
}

/**
 * Time per tool call (one provider turn + one no-op tool call: the gap between two provider
 * requests) of the same loop in four modes, ROUNDS times each, interleaved so machine noise hits
 * all alike, with the PostgreSQL journal on a fresh database (DATABASE_URL's server, else an
 * embedded one). The goal applies to what governance costs a real deployment per call: the
 * governed loop on the PostgreSQL journal above the loop with neither governance nor a database.
 */
export async function runGovernanceBench(): Promise<GovernanceRow[]> {
  const database = await openBenchDatabase();
  try {
    await database.db.raw(BENCH_COMMITS_TABLE);
    const memory = memoryBenchJournal();
    const postgres = postgresBenchJournal(database);
    const modes: Mode[] = [
      { name: 'loop, in-memory journal, governance off (floor)', governance: UNGOVERNED, store: memory, tool: noop },
      { name: 'loop, in-memory journal, governed', governance: GOVERNED, store: memory, tool: noop },
      { name: 'loop, PostgreSQL journal, governance off', governance: UNGOVERNED, store: postgres, tool: noop },
      { name: 'loop, PostgreSQL journal, governed', governance: GOVERNED, store: postgres, tool: noop },
      { name: 'loop, PostgreSQL journal, governed, tool outside the process', governance: GOVERNED, store: postgres, tool: outsideNoop },
    ];
    for (const mode of modes.slice(3)) await iterationTimes(mode); // warm-up: JIT, key generation, prepared statements
    const samples = modes.map(() => [] as number[]);
    const floors = { roundTrip: [] as number[], commit: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, mode] of modes.entries()) samples[i].push(...(await iterationTimes(mode)));
      const { roundTrip, commit } = await roundTripTimes(database.db);
      floors.roundTrip.push(...roundTrip);
      floors.commit.push(...commit);
    }
    return governanceRows(
      modes.map((mode, i) => ({ name: mode.name, samples: samples[i] })),
      floors,
    );
  } finally {
    await database.close();
  }
}

function governanceRows(modes: { name: string; samples: number[] }[], floors: { roundTrip: number[]; commit: number[] }): GovernanceRow[] {
  const measured = (name: string, values: number[]): GovernanceRow => {
    const sorted = [...values].sort((a, b) => a - b);
    return { measure: name, median_ms: ms(percentile(sorted, 0.5)), p90_ms: ms(percentile(sorted, 0.9)), goal: '' };
  };
  const [floor, memoryGoverned, postgresOff, postgresGoverned, outsideGoverned] = modes.map((m) => measured(m.name, m.samples));
  const difference = (name: string, from: GovernanceRow, to: GovernanceRow, goal = ''): GovernanceRow => ({
    measure: name,
    median_ms: ms(from.median_ms - to.median_ms),
    p90_ms: null,
    goal,
  });
  const overhead = postgresGoverned.median_ms - floor.median_ms;
  const commit = measured("one durable commit on the journal's pool (1-row INSERT)", floors.commit);
  const ratio = overhead / (2 * commit.median_ms);
  return [
    floor,
    memoryGoverned,
    postgresOff,
    postgresGoverned,
    outsideGoverned,
    difference(
      'GOVERNANCE OVERHEAD: verify + certify + persist (PostgreSQL governed - floor)',
      postgresGoverned,
      floor,
      `${ratio.toFixed(2)}x two commits: ${ratio <= GOAL_VS_COMMITS ? 'PASS' : 'FAIL'} (goal <= ${GOAL_VS_COMMITS}x)`,
    ),
    difference('  of which persisting the turn and the tool call (PostgreSQL off - floor)', postgresOff, floor),
    difference('  of which verify + certify, certificate stored (PostgreSQL governed - off)', postgresGoverned, postgresOff),
    difference('verify + certify alone (in-memory governed - floor)', memoryGoverned, floor),
    difference(
      'tool outside the process: verify + certify + persist (no goal: the tool waits on the network anyway)',
      outsideGoverned,
      floor,
    ),
    commit,
    { ...commit, measure: 'FLOOR of persisting a call: two durable commits', median_ms: ms(2 * commit.median_ms), p90_ms: null },
    measured("one round trip on the journal's pool (SELECT 1)", floors.roundTrip),
  ];
}

async function printGovernanceBench(): Promise<void> {
  const rows = await runGovernanceBench();
  console.log(
    `Governance overhead per tool call (${ROUNDS} runs x ${CALLS_PER_RUN} calls per mode; a call = one provider turn + one no-op tool call)`,
  );
  console.table(rows);
  console.log(
    'A call to an in-process tool persists its turn and itself in one statement (one durable commit). A tool outside the process waits for its turn to be written first (a commit that does not wait for the WAL flush); its own write flushes both.',
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runBench(printGovernanceBench);
