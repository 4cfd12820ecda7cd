import { createPrivateKey } from 'node:crypto';
import type { Knex } from 'knex';
import { createSigner } from '../../core/certificates/create-signer.js';
import { IN_TOTO_STATEMENT_TYPE } from '../../core/certificates/types.js';
import { load, loadInTurns, type LoadTarget } from './load.js';
import { commitRefs, HISTORY, seedReleaseHistory } from './seed-release-history.js';
import { startWorkerBenchServer } from './worker-bench-server.js';

/** Commits the load cycles through (random picks), evaluated once before measuring. */
const SAMPLE = 1_000;

export interface ReleaseBenchEnv {
  baseUrl: string;
  /** The seeded database, for benches that seed more of their own (bench/decision-rules.ts). */
  db: Knex;
  auth: Record<string, string>;
  commits: { repo: string; sha: string }[];
  floor: LoadTarget;
  close(): Promise<void>;
}

export function randomOf<T>(list: T[]): T {
  return list[Math.floor(Math.random() * list.length)];
}

/** A seeded database, the server in its own process, an API key and the floor target. */
export async function startReleaseBenchEnv(log: (line: string) => void = console.log): Promise<ReleaseBenchEnv> {
  const server = await startWorkerBenchServer({ worker: false });
  const { database, url } = server;
  const envelope = createSigner(createPrivateKey(server.signingKeyPem)).sign({
    _type: IN_TOTO_STATEMENT_TYPE,
    subject: [{ name: 'bench', digest: { sha256: '0'.repeat(64) } }],
    predicateType: 'https://shipgate.dev/attestations/final-output-safe/v1',
    predicate: {},
  });
  const started = Date.now();
  log(
    `seeding ${HISTORY.commits} commits / ${HISTORY.commits * HISTORY.executionsPerCommit} executions / ${HISTORY.commits * HISTORY.executionsPerCommit * HISTORY.toolCallsPerExecution} tool calls ...`,
  );
  await seedReleaseHistory(database.db, server.userId, envelope);
  log(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const numbers = Array.from({ length: SAMPLE }, (_, i) => 1 + Math.floor((i * HISTORY.commits) / SAMPLE));
  const commits = await commitRefs(database.db, numbers);
  const auth = { authorization: `Bearer ${server.apiKey}` };
  const query = (c: { repo: string; sha: string }) => `repo_root=${encodeURIComponent(c.repo)}&commit_sha=${c.sha}`;
  // Evaluate each sampled commit once, so the measured load is polling (snapshots stored), as in CI.
  for (let i = 0; i < commits.length; i += 16) {
    await Promise.all(
      commits
        .slice(i, i + 16)
        .map((c) => fetch(`${url}/api/v1/releases/decision?${query(c)}`, { headers: auth }).then((r) => r.arrayBuffer())),
    );
  }
  return {
    baseUrl: url,
    db: database.db,
    auth,
    commits,
    floor: { name: 'floor (auth + 1 indexed query)', path: () => `/api/v1/bench/floor?${query(randomOf(commits))}`, headers: auth },
    close: server.close,
  };
}

export interface Goal {
  /** Minimum share of the floor's throughput. */
  minFloorShare: number;
  /** Maximum p99 latency as a multiple of the floor's p99. */
  maxP99VsFloor?: number;
}

/**
 * Measures the floor and the targets in turns (bench/lib/load.ts, loadInTurns) and scores each
 * target against its goal as a ratio to the floor.
 */
export async function measureAgainstFloor(env: ReleaseBenchEnv, targets: { target: LoadTarget; goal: Goal }[]) {
  for (const { target } of targets) await load(env.baseUrl, target, 3); // warm-up: JIT, pools, caches
  await load(env.baseUrl, env.floor, 3);
  const [floor, ...measured] = await loadInTurns(env.baseUrl, [env.floor, ...targets.map((t) => t.target)]);
  const floorRps = floor.rps;
  const floorP99 = floor.p99_ms;
  const rows = [floor, ...measured].map((r) => {
    const goal = targets.find((t) => t.target.name === r.name)?.goal;
    const share = r.rps / floorRps;
    const p99Ratio = r.p99_ms / floorP99;
    const failed = goal
      ? [
          share < goal.minFloorShare && `throughput ${Math.round(share * 100)}% < ${goal.minFloorShare * 100}%`,
          goal.maxP99VsFloor !== undefined && p99Ratio > goal.maxP99VsFloor && `p99 ${p99Ratio.toFixed(2)}x > ${goal.maxP99VsFloor}x`,
          r.errors + r.non2xx > 0 && 'errors',
        ].filter(Boolean)
      : [];
    return {
      endpoint: r.name,
      'req/s': r.rps,
      'p50 ms': r.p50_ms,
      'p99 ms': r.p99_ms,
      errors: r.errors + r.non2xx,
      'rps vs floor': `${Math.round(share * 100)}%`,
      'p99 vs floor': `${p99Ratio.toFixed(2)}x`,
      goal: goal
        ? `rps >= ${goal.minFloorShare * 100}% of floor${goal.maxP99VsFloor ? `, p99 <= ${goal.maxP99VsFloor}x floor's` : ''}`
        : '',
      result: goal ? (failed.length === 0 ? 'PASS' : `FAIL (${failed.join(', ')})`) : '',
    };
  });
  return rows;
}
