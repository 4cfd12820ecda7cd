/**
 * Trust badge under load (docs/benchmarks.md): the same seeded history, 32 connections, against the
 * floor in the same run. Goal: >= 80% of the floor's throughput.
 *
 *   node bin/run-ts.js bench/badge.ts      (DATABASE_URL optional; else embedded PostgreSQL)
 */
import { pathToFileURL } from 'node:url';
import { measureAgainstFloor, randomOf, startReleaseBenchEnv, type ReleaseBenchEnv } from './lib/release-bench-env.js';
import type { LoadTarget } from './lib/load.js';
import { runBench } from './lib/bench-database.js';

/** Commit SHAs mostly, and a branch now and then (resolved through the recorded refs). */
export function badgeTarget(env: ReleaseBenchEnv): LoadTarget {
  return {
    name: 'GET /trust/badge',
    path: () => {
      const c = randomOf(env.commits);
      return `/api/v1/trust/badge?repo=${encodeURIComponent(c.repo)}&commit=${Math.random() < 0.1 ? 'main' : c.sha}`;
    },
  };
}

export const BADGE_GOAL = { minFloorShare: 0.8 };

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runBench(async () => {
    const env = await startReleaseBenchEnv();
    try {
      console.table(await measureAgainstFloor(env, [{ target: badgeTarget(env), goal: BADGE_GOAL }]));
    } finally {
      await env.close();
    }
  });
}
