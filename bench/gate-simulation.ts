/**
 * The gate simulation (docs/benchmarks.md, "Goals"): POST /releases/gates/{owner}/{repo}/simulate judging 200 pull
 * request heads of 3,000 changed files each with a draft of 20 rules (bench/lib/seed-rule-heads.ts's gate plus one
 * required check), beside 200 decision reads of the same commits (GET /releases/decision, four in flight, as the
 * simulation reads them), in turns, on the server as `npm start` runs it. Goal: the simulation answers within 2 s;
 * the ratio to the 200 decision reads is printed beside it.
 *
 *   env -u DATABASE_URL node bin/run-ts.js bench/gate-simulation.ts      (DATABASE_URL optional; else embedded PostgreSQL)
 */
import { pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
import { gateDigest } from '../core/release/gate.js';
import { runBench } from './lib/bench-database.js';
import { RULE_HEADS, RULES_BENCH_GATE, ruleHeadFacts } from './lib/seed-rule-heads.js';
import { startWorkerBenchServer } from './lib/worker-bench-server.js';

/** The simulation's goal: its answer, for 200 commits under a draft of 20 rules, within this many milliseconds. */
export const SIMULATION_GOAL_MS = 2_000;

const REPO = 'bench/simulated';
const COMMITS = 200;
const ROUNDS = 5;
const IN_FLIGHT = 4;

/** 200 heads of one repository, each with the App's stored facts (3,000 files) and two check runs; the 20 rules' gate in force. */
async function seed(db: Knex): Promise<string[]> {
  const shas = Array.from({ length: COMMITS }, (_, i) => `5e${i.toString(16).padStart(38, '0')}`);
  await db('gate_versions').insert({
    repo_root: REPO,
    version: 1,
    digest: gateDigest(RULES_BENCH_GATE),
    gate: JSON.stringify(RULES_BENCH_GATE),
    source: 'api',
  });
  for (const [i, sha] of shas.entries()) {
    await db('pull_request_authorship').insert({
      repo_root: REPO,
      commit_sha: sha,
      number: i + 1,
      status: 'read',
      facts: JSON.stringify(ruleHeadFacts(i + 1, sha)),
      commit_shas: [sha],
    });
    for (const name of ['ci/test', 'lint'])
      await db('evidence').insert({
        repo_root: REPO,
        commit_sha: sha,
        source: 'check_run',
        kind: 'check_run',
        name,
        status: 'completed',
        conclusion: 'success',
        external_id: `${name}-${i}`,
        produced_at: new Date(),
      });
  }
  await db.raw('VACUUM (ANALYZE) pull_request_authorship, evidence');
  return shas;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function runGateSimulationBench() {
  const server = await startWorkerBenchServer({ worker: false });
  try {
    const shas = await seed(server.database.db);
    const headers = { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' };
    const decisionReads = async () => {
      for (let i = 0; i < shas.length; i += IN_FLIGHT) {
        await Promise.all(
          shas.slice(i, i + IN_FLIGHT).map(async (sha) => {
            const res = await fetch(`${server.url}/api/v1/releases/decision?repo_root=${REPO}&commit_sha=${sha}`, { headers });
            if (res.status !== 200) throw new Error(`decision: ${res.status}`);
            await res.arrayBuffer();
          }),
        );
      }
    };
    // A required check no head ran: every head's blockers change, so the answer lists all 200 (its largest).
    const draft = { ...RULES_BENCH_GATE, required_checks: [...RULES_BENCH_GATE.required_checks, 'e2e'] };
    const simulate = async () => {
      const res = await fetch(`${server.url}/api/v1/releases/gates/${REPO}/simulate`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ gate: draft, limit: COMMITS }),
      });
      const body = (await res.json()) as { judged: number };
      if (res.status !== 200 || body.judged !== COMMITS) throw new Error(`simulate: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    };
    // Each head's first decision stores its snapshot; the measured reads poll, as CI does, and the simulation reads alike.
    await decisionReads();
    await simulate();
    const timed = async (run: () => Promise<void>) => {
      const started = performance.now();
      await run();
      return performance.now() - started;
    };
    const [reads, simulations]: [number[], number[]] = [[], []];
    for (let round = 0; round < ROUNDS; round++) {
      reads.push(await timed(decisionReads));
      simulations.push(await timed(simulate));
    }
    const [r, s] = [median(reads), median(simulations)];
    return {
      'simulation ms (median)': Math.round(s),
      [`${COMMITS} decision reads ms (median)`]: Math.round(r),
      'simulation / reads': `${(s / r).toFixed(2)}x`,
      goal: `simulation <= ${SIMULATION_GOAL_MS} ms (${COMMITS} heads of ${RULE_HEADS.files.toLocaleString('en-US')} files, ${RULE_HEADS.rules} rules)`,
      result: s <= SIMULATION_GOAL_MS ? 'PASS' : 'FAIL',
    };
  } finally {
    await server.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runBench(async () => {
    console.table([await runGateSimulationBench()]);
  });
}
