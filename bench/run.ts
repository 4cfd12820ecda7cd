/**
 * `npm run bench`: every benchmark, each printed as a table. The release benches share one
 * seeded database and one floor measurement run.
 */
import { badgeTarget, BADGE_GOAL } from './badge.js';
import { decisionTarget, DECISION_GOAL } from './decision.js';
import { runGovernanceBench } from './governance.js';
import { measureAgainstFloor, startReleaseBenchEnv } from './lib/release-bench-env.js';
import { CONNECTIONS, DURATION_SECONDS } from './lib/load.js';
import { runWebhookBench } from './webhook.js';

console.log('Governance overhead per tool call (verify + certify + persist vs the ungoverned loop)');
console.table(await runGovernanceBench());

const env = await startReleaseBenchEnv();
try {
  const rows = await measureAgainstFloor(env, [
    { target: decisionTarget(env), goal: DECISION_GOAL },
    { target: badgeTarget(env), goal: BADGE_GOAL },
  ]);
  console.log(`Release gate under load (${CONNECTIONS} connections, ${DURATION_SECONDS} s each; floor measured before and after)`);
  console.table(rows);
} finally {
  await env.close();
}

await runWebhookBench();
