/**
 * Decision endpoint under load (docs/benchmarks.md): 10,000 commits / 100,000 executions / 1,000,000
 * tool calls stored, 32 connections, against a floor endpoint (auth + one indexed query) in the
 * same run. Goals: >= 70% of the floor's throughput and p99 <= 1.5x the floor's p99.
 *
 *   node bin/run-ts.js bench/decision.ts      (DATABASE_URL optional; else embedded PostgreSQL)
 */
import { pathToFileURL } from 'node:url';
import { measureAgainstFloor, randomOf, startReleaseBenchEnv, type ReleaseBenchEnv } from './lib/release-bench-env.js';
import type { LoadTarget } from './lib/load.js';
import { runBench } from './lib/bench-database.js';

export function decisionTarget(env: ReleaseBenchEnv): LoadTarget {
  return {
    name: 'GET /releases/decision',
    headers: env.auth,
    path: () => {
      const c = randomOf(env.commits);
      return `/api/v1/releases/decision?repo_root=${encodeURIComponent(c.repo)}&commit_sha=${c.sha}`;
    },
  };
}

export const DECISION_GOAL = { minFloorShare: 0.7, maxP99VsFloor: 1.5 };

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runBench(async () => {
    const env = await startReleaseBenchEnv();
    try {
      console.table(await measureAgainstFloor(env, [{ target: decisionTarget(env), goal: DECISION_GOAL }]));
    } finally {
      await env.close();
    }
  });
}
