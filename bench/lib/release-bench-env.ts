import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSigner } from '../../core/certificates/create-signer.js';
import { IN_TOTO_STATEMENT_TYPE } from '../../core/certificates/types.js';
import { openBenchDatabase, type BenchDatabase } from './bench-database.js';
import { load, loadInTurns, type LoadTarget } from './load.js';
import { commitRefs, HISTORY, seedReleaseHistory } from './seed-release-history.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Commits the load cycles through (random picks), evaluated once before measuring. */
const SAMPLE = 1_000;

export interface ReleaseBenchEnv {
  baseUrl: string;
  auth: Record<string, string>;
  commits: { repo: string; sha: string }[];
  floor: LoadTarget;
  close(): Promise<void>;
}

/** The Node flags `npm start` gives the server (package.json's `start` script: `node <flags> bin/shipgate.js serve`). */
function startNodeFlags(): string[] {
  const start: string = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start;
  const flags = /^node((?: --\S+)*) bin\/shipgate\.js\b/.exec(start);
  if (!flags) throw new Error(`package.json's start script is not "node <flags> bin/shipgate.js ...": ${start}`);
  return flags[1].split(' ').filter(Boolean);
}

/** The bench server (bench/lib/release-bench-server.ts) in its own process, with the Node flags of `npm start`. */
export function startServer(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  // BENCH_CPU_PROF=<dir> writes a V8 CPU profile of the server process there.
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const execArgv = [...startNodeFlags(), ...profile];
  const child = fork(path.join(ROOT, 'bin/run-ts.js'), [path.join(ROOT, 'bench/lib/release-bench-server.ts')], {
    env,
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m: { url: string }) => resolve({ child, url: m.url }));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
}

export function randomOf<T>(list: T[]): T {
  return list[Math.floor(Math.random() * list.length)];
}

/** A seeded database, the server in its own process, an API key and the floor target. */
export async function startReleaseBenchEnv(log: (line: string) => void = console.log): Promise<ReleaseBenchEnv> {
  const database: BenchDatabase = await openBenchDatabase();
  const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
  const { child, url } = await startServer({
    ...process.env,
    DATABASE_URL: database.url,
    SHIPGATE_SIGNING_KEY: pem,
    SHIPGATE_DATA_DIR: path.join(ROOT, '.shipgate/bench'),
  });
  const registered = await fetch(`${url}/api/v1/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.com', name: 'bench', password: 'bench password' }),
  }).then((r) => r.json() as Promise<{ id: string; api_key: string }>);
  const envelope = createSigner(createPrivateKey(pem)).sign({
    _type: IN_TOTO_STATEMENT_TYPE,
    subject: [{ name: 'bench', digest: { sha256: '0'.repeat(64) } }],
    predicateType: 'https://shipgate.dev/attestations/final-output-safe/v1',
    predicate: {},
  });
  const started = Date.now();
  log(
    `seeding ${HISTORY.commits} commits / ${HISTORY.commits * HISTORY.executionsPerCommit} executions / ${HISTORY.commits * HISTORY.executionsPerCommit * HISTORY.toolCallsPerExecution} tool calls ...`,
  );
  await seedReleaseHistory(database.db, registered.id, envelope);
  log(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const numbers = Array.from({ length: SAMPLE }, (_, i) => 1 + Math.floor((i * HISTORY.commits) / SAMPLE));
  const commits = await commitRefs(database.db, numbers);
  const auth = { authorization: `Bearer ${registered.api_key}` };
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
    auth,
    commits,
    floor: { name: 'floor (auth + 1 indexed query)', path: () => `/api/v1/bench/floor?${query(randomOf(commits))}`, headers: auth },
    async close() {
      child.disconnect();
      await new Promise((r) => child.once('exit', r));
      await database.close();
    },
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
