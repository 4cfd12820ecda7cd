/**
 * Evidence upload with its document (docs/benchmarks.md): a generated 5 MiB JUnit report
 * (jest-junit's shape, 1% of its tests failing) POSTed as base64 `content` to
 * /releases/evidence, one upload at a time, on the server as `npm start` runs it (the job worker
 * in the same process). Each upload differs by a timestamp, so each is parsed and stored anew,
 * as CI uploads a new report per run. Goal: median answer within UPLOAD_GOAL_MS (the README
 * states it).
 *
 *   node bin/run-ts.js bench/evidence-upload.ts      (DATABASE_URL optional; else embedded PostgreSQL)
 */
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { runBench } from './lib/bench-database.js';
import { junitReport } from './lib/junit-report.js';
import { startWorkerBenchServer } from './lib/worker-bench-server.js';

export const UPLOAD_GOAL_MS = 3_000;
const WARM_UP = 2;
const UPLOADS = Number(process.env.BENCH_EVIDENCE_UPLOADS ?? 15);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/** Uploads UPLOADS reports one at a time after WARM_UP, each to a commit of its own; answers the table's rows. */
export async function runEvidenceUploadBench() {
  const { url, apiKey, close } = await startWorkerBenchServer();
  try {
    const times: number[] = [];
    let failed = 0;
    let summary = '';
    for (let run = 0; run < WARM_UP + UPLOADS; run++) {
      const report = junitReport(run);
      const body = JSON.stringify({
        repo_root: 'acme/bench-evidence',
        commit_sha: createHash('sha1').update(`evidence-${run}`).digest('hex'),
        kind: 'test-report',
        name: 'tests',
        status: 'passed',
        format: 'junit',
        content: report.toString('base64'),
        produced_at: new Date().toISOString(),
      });
      const started = performance.now();
      const response = await fetch(`${url}/api/v1/releases/evidence`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
        body,
      });
      const answer = (await response.json()) as { summary?: { total: number; failed: number } };
      const ms = performance.now() - started;
      if (response.status !== 201) {
        failed++;
        summary = `${response.status} ${JSON.stringify(answer).slice(0, 200)}`;
      } else if (answer.summary) summary = `${answer.summary.total} tests, ${answer.summary.failed} failed`;
      if (run >= WARM_UP) times.push(ms);
    }
    const mid = median(times);
    const pass = failed === 0 && mid <= UPLOAD_GOAL_MS;
    return [
      {
        endpoint: 'POST /releases/evidence (5 MiB JUnit, base64)',
        uploads: times.length,
        'median ms': Math.round(mid),
        'max ms': Math.round(Math.max(...times)),
        errors: failed,
        'read as': summary,
        goal: `median <= ${UPLOAD_GOAL_MS} ms`,
        result: pass ? 'PASS' : 'FAIL',
      },
    ];
  } finally {
    await close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runBench(async () => {
    console.table(await runEvidenceUploadBench());
  });
}
