/**
 * Governance overhead per tool call (DESIGN §13): the same agent loop run with a fake provider
 * that always calls a no-op tool, governed (verify + certify + persist) and not (no verification,
 * no certificates, nothing but memory to write to). One iteration = one provider turn + one
 * tool call; its time is the gap between two provider requests. Goal: median overhead <= 2 ms.
 *
 *   node bin/run-ts.js bench/governance.ts            (memory journal)
 *   DATABASE_URL=postgres://... node bin/run-ts.js bench/governance.ts   (also the PostgreSQL journal)
 */
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { GOVERNED, type Governance } from '../core/agent/governance.js';
import type { ExecutionJournal, RunState } from '../core/agent/journal.js';
import type { Provider, ProviderRequest, ProviderResponse } from '../core/agent/provider.js';
import { runExecution } from '../core/agent/run-execution.js';
import type { RuntimeDeps } from '../core/agent/runtime-deps.js';
import { defineTool } from '../core/agent/tools/tool.js';
import { policyRef } from '../core/policies/policy-digest.js';
import { createCertifier } from '../core/certificates/create-certifier.js';
import { createSigner } from '../core/certificates/create-signer.js';
import { builtInPolicy } from '../core/policies/built-in-policies.js';
import type { Policy } from '../core/policies/policy.js';
import { createKnex } from '../db/create-knex.js';
import { migrate } from '../db/migrate.js';
import { createExecutionJournal } from '../db/stores/execution-journal.js';
import { createExecutionStore } from '../db/stores/execution-store.js';
import { MemoryJournal } from '../test/helpers/memory-journal.js';
import { withDatabase } from '../test/helpers/test-database.js';

const CALLS_PER_RUN = 200;
const ROUNDS = 5;
const GOAL_MS = 2;

const noop = defineTool({
  name: 'noop', description: 'does nothing', capability: 'bench:noop',
  schema: z.strictObject({ n: z.number().int() }),
  run: async ({ n }) => ({ output: `ok ${n}` }),
});

/** The floor: the tool is looked up and its arguments parsed, nothing is checked or certified. */
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
      return { text: null, toolCalls: [{ id: `call_${turn}`, name: 'noop', arguments: JSON.stringify({ n: turn }) }], usage, stopReason: 'tool_calls' };
    },
  };
}

/** The built-in `default` preset, with room for every call of a run. */
const benchPolicy: Policy = { ...builtInPolicy('default')!, max_tool_calls: CALLS_PER_RUN + 1 };

/** Where a mode's runs are recorded: seeds one queued execution per run. */
export interface BenchJournal {
  journal: ExecutionJournal;
  seed(policy: Policy): Promise<string>;
  close(): Promise<void>;
}

export function memoryBenchJournal(): BenchJournal {
  const journal = new MemoryJournal();
  return {
    journal,
    async seed(policy) {
      const now = new Date().toISOString();
      const state: RunState = {
        policy, transcript: [], upstreamArtifacts: [], upstreamCertificateDigests: [],
        execution: {
          id: randomUUID(), owner_id: randomUUID(), workflow_id: null, stage_id: null, task: 'bench', status: 'queued', verdict: null,
          policy: policyRef(policy), stage_role: 'worker', permissions: ['*'],
          dropped_permissions: [], budget_cents: 1_000_000, cost_cents: 0, provider: 'openai', model: 'bench-free', api_key_override: false,
          upstream_execution_ids: [], repo_root: null, commit_sha: null, tool_calls: [], certificates: [], artifacts: [], output: null, error: null,
          created_at: now, started_at: null, finished_at: null,
        },
      };
      return journal.add(state);
    },
    close: async () => undefined,
  };
}

/** The PostgreSQL journal on a fresh, migrated database of its own (dropped on close). */
async function postgresBenchJournal(serverUrl: string): Promise<BenchJournal> {
  const name = `sg_bench_${randomBytes(6).toString('hex')}`;
  const admin = createKnex(serverUrl, 1);
  await admin.raw(`CREATE DATABASE ${name}`);
  const db = createKnex(withDatabase(serverUrl, name), 5);
  await migrate(db);
  const secretKey = randomBytes(32);
  const [owner] = await db('users').insert({ email: 'bench@example.com', name: 'bench', role: 'OPERATOR', password_hash: 'unused' }).returning('id');
  const executions = createExecutionStore(db, secretKey);
  return {
    journal: createExecutionJournal(db, secretKey, { get: async () => benchPolicy }),
    async seed(policy) {
      const execution = await executions.create({
        owner_id: owner.id, task: 'bench', policy: policyRef(policy), stage_role: 'worker', permissions: ['*'], dropped_permissions: [],
        budget_cents: 1_000_000, provider: 'openai', model: 'bench-free',
      }, { enqueue: false });
      return execution.id;
    },
    async close() {
      await db.destroy();
      await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.destroy();
    },
  };
}

interface Mode {
  name: string;
  journal: string;
  governance: Governance;
  store: BenchJournal;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

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
    cancelPollMs: 60_000,
    tools: [noop],
    log: () => undefined,
  };
  await runExecution(deps, id, mode.governance);
  return arrivals.slice(1).map((t, i) => t - arrivals[i]);
}

export interface GovernanceRow {
  mode: string;
  journal: string;
  calls: number;
  median_ms: number;
  p90_ms: number;
  overhead_median_ms: number | null;
  goal: string;
}

/**
 * Runs every mode ROUNDS times, interleaved so machine noise hits all of them alike. Each journal
 * is measured with governance off and on; the floor is governance off on the memory journal, so
 * a database journal's rows show what persisting costs on top of verify + certify.
 */
export async function runGovernanceBench(journals: { journal: string; store: BenchJournal }[] = []): Promise<GovernanceRow[]> {
  const all = [{ journal: 'memory', store: memoryBenchJournal() }, ...journals];
  const modes: Mode[] = all.flatMap(({ journal, store }) => [
    { name: journal === 'memory' ? 'governance off (floor)' : 'governance off', journal, governance: UNGOVERNED, store },
    { name: 'governed', journal, governance: GOVERNED, store },
  ]);
  await iterationTimes(modes[1]); // warm-up: JIT, key generation, module loading
  const samples = new Map<Mode, number[]>(modes.map((m) => [m, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of modes) samples.get(mode)!.push(...(await iterationTimes(mode)));
  }
  for (const { store } of all) await store.close();
  const median = (mode: Mode) => percentile([...samples.get(mode)!].sort((a, b) => a - b), 0.5);
  const floor = median(modes[0]);
  return modes.map((mode, i) => {
    const sorted = [...samples.get(mode)!].sort((a, b) => a - b);
    const overhead = i === 0 ? null : median(mode) - floor;
    const goal = mode.governance === UNGOVERNED || overhead === null ? '' : overhead <= GOAL_MS ? `PASS (<= ${GOAL_MS} ms)` : `FAIL (> ${GOAL_MS} ms)`;
    return {
      mode: mode.name, journal: mode.journal, calls: sorted.length,
      median_ms: +percentile(sorted, 0.5).toFixed(3), p90_ms: +percentile(sorted, 0.9).toFixed(3),
      overhead_median_ms: overhead === null ? null : +overhead.toFixed(3),
      goal,
    };
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const serverUrl = process.env.DATABASE_URL;
  const postgres = serverUrl ? [{ journal: 'postgres', store: await postgresBenchJournal(serverUrl) }] : [];
  const rows = await runGovernanceBench(postgres);
  console.log(`Governance overhead per tool call (${ROUNDS} runs x ${CALLS_PER_RUN} calls per mode)`);
  console.table(rows);
}
