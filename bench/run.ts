/**
 * `npm run bench`: every benchmark, each printed as a table, on one PostgreSQL (DATABASE_URL's
 * server, else one embedded server for the run), named at the top. The release benches share
 * one seeded database and one floor measurement run.
 */
import { badgeTarget, BADGE_GOAL } from './badge.js';
import { decisionTarget, DECISION_GOAL } from './decision.js';
import { measureRules } from './decision-rules.js';
import { runGovernanceBench } from './governance.js';
import { runMcpBench } from './mcp.js';
import { runMcpReplicasBench } from './mcp-replicas.js';
import { runHooksBench } from './hooks.js';
import { HOOKS_LOWER_BOUND_TITLE, runHooksLowerBound } from './hooks-lower-bound.js';
import { MCP_LOWER_BOUND_TITLE, runMcpLowerBound } from './mcp-lower-bound.js';
import { runEvidenceUploadBench } from './evidence-upload.js';
import { runGateSimulationBench } from './gate-simulation.js';
import { runHealthzDuringUploadsBench } from './healthz-during-uploads.js';
import { runBench } from './lib/bench-database.js';
import { measureAgainstFloor, startReleaseBenchEnv } from './lib/release-bench-env.js';
import { CONNECTIONS, DURATION_SECONDS, ROUNDS } from './lib/load.js';
import { runWebhookBench } from './webhook.js';
import { FULL_LEVELS, printGrowth, runGrowthBench } from './growth.js';

await runBench(async () => {
  console.log('Governance overhead per tool call (verify + certify + persist vs the ungoverned loop)');
  console.table(await runGovernanceBench());

  console.log('MCP gateway per tool call (the same tools/call directly to the upstream and through shipgate; worker in process)');
  console.table(await runMcpBench());
  console.log(MCP_LOWER_BOUND_TITLE);
  console.table(await runMcpLowerBound());

  console.log('MCP gateway across two replicas (50 sessions at once behind a round-robin proxy; worker in the first)');
  console.table(await runMcpReplicasBench());

  console.log('Coding-agent hooks per tool call (a PreToolUse + PostToolUse pair of an allowed Bash call; worker in process)');
  console.table(await runHooksBench());
  console.log(HOOKS_LOWER_BOUND_TITLE);
  console.table(await runHooksLowerBound());

  const env = await startReleaseBenchEnv();
  try {
    const rows = await measureAgainstFloor(env, [
      { target: decisionTarget(env), goal: DECISION_GOAL },
      { target: badgeTarget(env), goal: BADGE_GOAL },
    ]);
    console.log(`Release gate under load (${CONNECTIONS} connections, ${DURATION_SECONDS} s each in ${ROUNDS} turns with the floor)`);
    console.table(rows);
    const rules = await measureRules(env);
    console.log('The decision with rules: 20 rules over pull requests of 3,000 files, beside the same decision without rules');
    console.table(rules.rows);
    console.table([rules.versusPlain]);
  } finally {
    await env.close();
  }

  await runWebhookBench();

  console.log('Gate simulation: 200 pull request heads of 3,000 files under a draft of 20 rules, beside 200 decision reads of them');
  console.table([await runGateSimulationBench()]);

  console.log('Evidence upload with a 5 MiB JUnit report (parsed and stored at upload; worker in process)');
  console.table(await runEvidenceUploadBench());

  console.log(
    '/healthz at a steady 200 req/s, idle and while 5 MiB JUnit reports upload back to back (parsed in a thread; worker in process)',
  );
  console.table(await runHealthzDuringUploadsBench());

  // The full top level (100,000 commits / 1M executions) takes about 2 minutes to seed on the
  // development machine, which would push `npm run bench` past 5 minutes: here the history grows
  // to 30,000 commits / 300,000 executions; `npm run bench:growth` runs the full levels.
  const growthLevels = process.env.BENCH_GROWTH_COMMITS?.split(',').map(Number) ?? [FULL_LEVELS[0], FULL_LEVELS[1], 30_000];
  printGrowth(await runGrowthBench(growthLevels));
});
