/**
 * /healthz while evidence documents are parsed (docs/benchmarks.md; docs/operations.md, "Security"): on the server as
 * `npm start` runs it (the job worker in the same process), /healthz is asked at a steady rate by autocannon, in turns:
 * with nothing else going on (the floor), and while 5 MiB JUnit reports upload back to back, one at a time, each
 * parsed in the server's parse thread. Goal: /healthz p99 during uploads <= 2x its idle p99 in the same run.
 *
 *   node bin/run-ts.js bench/healthz-during-uploads.ts      (DATABASE_URL optional; else embedded PostgreSQL)
 */
import autocannon from 'autocannon';
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { runBench } from './lib/bench-database.js';
import { junitReport } from './lib/junit-report.js';
import { postParts } from './lib/post-parts.js';
import { ROUNDS, TURN_SECONDS } from './lib/load.js';
import { startWorkerBenchServer } from './lib/worker-bench-server.js';

export const HEALTHZ_GOAL_RATIO = 2;
/** A steady prober, as a load balancer's or an orchestrator's health checks are, not a flood: /healthz requests per second. */
const HEALTHZ_RATE = 200;
const HEALTHZ_CONNECTIONS = 4;
/** Distinct reports, built before measuring (the bench process shares the machine's cores with the server). */
const REPORTS = 12;

interface Turn {
  requests: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
}

/** /healthz at HEALTHZ_RATE for `seconds`; latencies corrected for coordinated omission (a stalled server is not asked less). */
async function probeHealthz(url: string, seconds: number): Promise<Turn> {
  const result = await autocannon({
    url: `${url}/healthz`,
    connections: HEALTHZ_CONNECTIONS,
    overallRate: HEALTHZ_RATE,
    duration: seconds,
  });
  return {
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

const COMMIT_PLACEHOLDER = 'c'.repeat(40);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Idle and uploading turns, ROUNDS times each; answers the table's rows. */
export async function runHealthzDuringUploadsBench() {
  const { url, apiKey, close } = await startWorkerBenchServer();
  try {
    // Each body is built once, around a placeholder commit: an upload writes the three parts, so the bench's own
    // process spends next to nothing per upload (it shares the machine's cores with the server).
    const bodies = Array.from({ length: REPORTS }, (_, run) => {
      const text = JSON.stringify({
        repo_root: 'acme/bench-healthz',
        commit_sha: COMMIT_PLACEHOLDER,
        kind: 'test-report',
        name: 'tests',
        status: 'passed',
        format: 'junit',
        produced_at: new Date().toISOString(),
        content: junitReport(1000 + run).toString('base64'),
      });
      const at = text.indexOf(COMMIT_PLACEHOLDER);
      return [Buffer.from(text.slice(0, at)), Buffer.from(text.slice(at + COMMIT_PLACEHOLDER.length))] as const;
    });
    let uploads = 0;
    let failed = '';
    const upload = async () => {
      // Each upload to a commit of its own; the report's bytes repeat every REPORTS uploads (each is parsed anew).
      const [before, after] = bodies[uploads % REPORTS];
      const commit = Buffer.from(createHash('sha1').update(`healthz-${uploads}`).digest('hex'));
      const { status } = await postParts(`${url}/api/v1/releases/evidence`, { authorization: `Bearer ${apiKey}` }, [before, commit, after]);
      if (status !== 201) failed = `upload answered ${status}`;
      uploads++;
    };
    // Warm up: the parse thread starts on the first upload.
    await upload();
    await probeHealthz(url, 1);

    const idle: Turn[] = [];
    const busy: Turn[] = [];
    let busyUploads = 0;
    for (let round = 0; round < ROUNDS; round++) {
      idle.push(await probeHealthz(url, TURN_SECONDS));
      let uploading = true;
      const before = uploads;
      const uploader = (async () => {
        while (uploading) await upload();
      })();
      busy.push(await probeHealthz(url, TURN_SECONDS));
      uploading = false;
      await uploader;
      busyUploads += uploads - before;
    }
    const idleP99 = median(idle.map((t) => t.p99));
    const busyP99 = median(busy.map((t) => t.p99));
    const ratio = busyP99 / Math.max(idleP99, 1);
    const errors = [...idle, ...busy].reduce((sum, t) => sum + t.errors, 0);
    const pass = !failed && errors === 0 && ratio <= HEALTHZ_GOAL_RATIO;
    const row = (name: string, turns: Turn[], extra: Record<string, unknown>) => ({
      '/healthz': name,
      requests: turns.reduce((sum, t) => sum + t.requests, 0),
      'p50 ms': median(turns.map((t) => t.p50)),
      'p99 ms': median(turns.map((t) => t.p99)),
      'max ms': Math.max(...turns.map((t) => t.max)),
      errors: turns.reduce((sum, t) => sum + t.errors, 0),
      ...extra,
    });
    return [
      row('idle (floor)', idle, {}),
      row('during 5 MiB uploads', busy, {
        uploads: busyUploads,
        'ratio p99': `${ratio.toFixed(2)}x`,
        goal: `p99 <= ${HEALTHZ_GOAL_RATIO}x idle`,
        result: pass ? 'PASS' : `FAIL${failed ? ` (${failed})` : ''}`,
      }),
    ];
  } finally {
    await close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runBench(async () => {
    console.log(`/healthz at a steady ${HEALTHZ_RATE} req/s, idle and while 5 MiB JUnit reports upload back to back (worker in process)`);
    console.table(await runHealthzDuringUploadsBench());
  });
}
