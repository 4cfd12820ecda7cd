/**
 * The decision with rules (docs/benchmarks.md): the decision bench's history, plus 200 pull request heads of 3,000
 * changed files each whose gate holds 20 rules (bench/lib/seed-rule-heads.ts), polled beside the floor and beside the
 * same decision on heads whose gate has no rules, in turns. Goals: as the decision's (>= 70% of the floor's throughput,
 * p99 <= 1.5x the floor's), and the rules' heads within noise of the plain decision.
 *
 *   env -u DATABASE_URL node bin/run-ts.js bench/decision-rules.ts      (DATABASE_URL optional; else embedded PostgreSQL)
 */
import { pathToFileURL } from 'node:url';
import { decisionTarget, DECISION_GOAL } from './decision.js';
import { runBench } from './lib/bench-database.js';
import type { LoadTarget } from './lib/load.js';
import { measureAgainstFloor, startReleaseBenchEnv, type ReleaseBenchEnv } from './lib/release-bench-env.js';
import { RULE_HEADS, seedRuleHeads } from './lib/seed-rule-heads.js';

/** GET /releases/decision for a random head of a pull request judged by 20 rules over its 3,000 files. */
export function rulesDecisionTarget(env: ReleaseBenchEnv, heads: { repo: string; sha: string }[]): LoadTarget {
  return {
    ...decisionTarget({ ...env, commits: heads }),
    name: `GET /releases/decision (${RULE_HEADS.rules} rules, ${RULE_HEADS.files.toLocaleString('en-US')} files)`,
  };
}

/** The rules' decision against the plain one measured in the same turns: at least this share of its throughput. */
export const RULES_VS_PLAIN_MIN_SHARE = 0.85;

/** The rows of measureAgainstFloor, and the rules' decision as a share of the plain decision's throughput and p99. */
export async function measureRules(env: ReleaseBenchEnv) {
  const plain = decisionTarget(env);
  const heads = await seedRuleHeads(env.db);
  const rules = rulesDecisionTarget(env, heads);
  // Each head's first decision reads its facts and stores a snapshot; the measured load polls, as CI does.
  for (let i = 0; i < heads.length; i += 16) {
    await Promise.all(
      heads.slice(i, i + 16).map((c) =>
        fetch(`${env.baseUrl}/api/v1/releases/decision?repo_root=${encodeURIComponent(c.repo)}&commit_sha=${c.sha}`, {
          headers: env.auth,
        }).then((r) => r.arrayBuffer()),
      ),
    );
  }
  // The bench measures what it says only if the heads' decisions judge every rule over every file.
  const bytes = async (target: LoadTarget) => (await (await fetch(`${env.baseUrl}${target.path()}`, { headers: env.auth })).text()).length;
  const sampleText = await (await fetch(`${env.baseUrl}${rules.path()}`, { headers: env.auth })).text();
  const sample = JSON.parse(sampleText) as { authorship: { rules?: unknown[]; changed_files?: { count: number | null } } };
  if (sample.authorship.rules?.length !== RULE_HEADS.rules || sample.authorship.changed_files?.count !== RULE_HEADS.files)
    throw new Error(`The rules bench's heads are not judged by their rules: ${JSON.stringify(sample.authorship).slice(0, 500)}`);
  const rows = await measureAgainstFloor(env, [
    { target: plain, goal: DECISION_GOAL },
    { target: rules, goal: DECISION_GOAL },
  ]);
  const [p, r] = [rows.find((x) => x.endpoint === plain.name)!, rows.find((x) => x.endpoint === rules.name)!];
  const share = r['req/s'] / p['req/s'];
  return {
    rows,
    versusPlain: {
      'answer bytes (plain / rules)': `${await bytes(plain)} / ${sampleText.length}`,
      'rps vs plain decision': `${Math.round(share * 100)}%`,
      'p99 vs plain decision': `${(r['p99 ms'] / p['p99 ms']).toFixed(2)}x`,
      goal: `rps >= ${RULES_VS_PLAIN_MIN_SHARE * 100}% of the plain decision's`,
      result: share >= RULES_VS_PLAIN_MIN_SHARE ? 'PASS' : 'FAIL',
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runBench(async () => {
    const env = await startReleaseBenchEnv();
    try {
      const { rows, versusPlain } = await measureRules(env);
      console.table(rows);
      console.table([versusPlain]);
    } finally {
      await env.close();
    }
  });
}
