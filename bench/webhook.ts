/**
 * GitHub webhook (docs/benchmarks.md):
 *  1. ack latency: signed check_run deliveries (each a new delivery id) at 32 connections against
 *     the floor route in the same run, on the server as `npm start` runs it (the job worker in the
 *     same process, processing the deliveries meanwhile); goal p99 <= 2x the floor's p99. Beside
 *     the acks: deliveries fully processed (their github_delivery job done) per second during the
 *     same turns, and the backlog left when the load stops.
 *  2. processing: 1,000 check_run deliveries for 100 pull requests (10 repositories, 5 required
 *     checks, created + completed each) through the real server, job worker and a fake GitHub;
 *     goal: zero duplicate comments or check runs and no write that changes nothing, i.e. at most
 *     one comment write and one check-run write per pull request per decision change. Reports
 *     deliveries/s.
 *
 *   node bin/run-ts.js bench/webhook.ts      (DATABASE_URL optional; else embedded PostgreSQL)
 */
import { createHmac, generateKeyPairSync, randomUUID } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createLogger } from '../server/create-logger.js';
import { buildDeps } from '../server/build-deps.js';
import { loadConfig } from '../server/load-config.js';
import { createMetrics } from '../server/create-metrics.js';
import { buildGitHubWebhook } from '../server/github-app.js';
import { createServer } from '../api/create-server.js';
import { migrateJobQueue } from '../db/job-queue.js';
import { startWorker } from '../worker/start-worker.js';
import { startFakeGitHub, type FakeGitHub } from '../test/fakes/fake-github-server.js';
import { openBenchDatabase, runBench } from './lib/bench-database.js';
import { CONNECTIONS, DURATION_SECONDS, load, loadInTurns, ROUNDS, TURN_SECONDS, type LoadTarget } from './lib/load.js';
import { startWorkerBenchServer } from './lib/worker-bench-server.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SECRET = 'bench-webhook-secret';
const REPOS = 10;
const PRS_PER_REPO = 10;
const CHECKS = ['build', 'test', 'lint', 'e2e', 'docs'];
const sha = (n: number) => createHmac('sha1', 'bench').update(String(n)).digest('hex');
/** A repository's numeric id, as GitHub sends it with every delivery (the App binds OIDC tokens to it). */
const repoId = (repo: string) => 1000 + Number(repo.split('-').pop());
const sign = (body: string) => `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;

/** A check_run delivery; `branch` is the head branch its commit was pushed to (a pull request's). */
function checkRunBody(repo: string, head: string, branch: string, id: number, name: string, completed: boolean): string {
  const [owner, nameOfRepo] = repo.split('/');
  return JSON.stringify({
    action: completed ? 'completed' : 'created',
    check_run: {
      id,
      name,
      head_sha: head,
      status: completed ? 'completed' : 'in_progress',
      conclusion: completed ? 'success' : null,
      started_at: new Date(Date.now() - 60_000).toISOString(),
      completed_at: completed ? new Date().toISOString() : null,
      details_url: null,
      app: { id: 1 },
      check_suite: { head_branch: branch },
      pull_requests: [],
    },
    repository: { id: repoId(repo), name: nameOfRepo, full_name: repo, owner: { login: owner, id: 1 } },
    installation: { id: 1 },
  });
}

/** Deliveries claimed with work to do whose github_delivery job is done. */
async function deliveriesProcessed(db: import('knex').Knex): Promise<number> {
  const { rows } = await db.raw(`SELECT (SELECT count(*) FROM github_deliveries WHERE outcome = 'queued')
    - (SELECT count(*) FROM graphile_worker.jobs WHERE task_identifier = 'github_delivery') AS n`);
  return Number(rows[0].n);
}

/** Part 1: ack p99 of the webhook vs the floor, on the bench server in its own process with its job worker, as `npm start` runs. */
export async function webhookAckBench() {
  const { database, url, apiKey, close } = await startWorkerBenchServer({ env: { WEBHOOK_SECRET: SECRET } });
  try {
    // Each delivery reports a new check run (one of five names) on one of 1,000 commits in 10
    // repositories, as many pull requests' CI would: its job records evidence of its own.
    let runId = 0;
    const webhook: LoadTarget = {
      name: 'POST /releases/github-webhook (check_run, signed)',
      method: 'POST',
      path: () => '/api/v1/releases/github-webhook',
      headers: { 'content-type': 'application/json', 'x-github-event': 'check_run' },
      perRequest: () => {
        const n = ++runId;
        const commit = n % 1000;
        const body = checkRunBody(`acme/bench-${commit % REPOS}`, sha(commit), `f-${commit}`, n, CHECKS[n % CHECKS.length], true);
        return { body, headers: { 'x-github-delivery': randomUUID(), 'x-hub-signature-256': sign(body) } };
      },
    };
    const floor: LoadTarget = {
      name: 'floor (auth + 1 indexed query)',
      path: () => `/api/v1/bench/floor?repo_root=acme/bench&commit_sha=${sha(2)}`,
      headers: { authorization: `Bearer ${apiKey}` },
    };
    await load(url, webhook, 3);
    await load(url, floor, 3);
    let processed = 0;
    const [floorResult, measured] = await loadInTurns(url, [floor, webhook], async (target, run) => {
      if (target !== webhook) return run();
      const before = await deliveriesProcessed(database.db);
      const result = await run();
      processed += (await deliveriesProcessed(database.db)) - before;
      return result;
    });
    const ratio = measured.p99_ms / floorResult.p99_ms;
    const backlog = measured.requests - (await deliveriesProcessed(database.db));
    return [floorResult, measured].map((r) => ({
      endpoint: r.name,
      'req/s': r.rps,
      'p50 ms': r.p50_ms,
      'p99 ms': r.p99_ms,
      errors: r.errors + r.non2xx,
      'processed/s': r === measured ? Math.round(processed / (TURN_SECONDS * ROUNDS)) : '',
      'backlog at end': r === measured ? backlog : '',
      'p99 vs floor': r === measured ? `${ratio.toFixed(2)}x` : '',
      goal: r === measured ? 'p99 <= 2x floor p99' : '',
      result: r === measured ? (ratio <= 2 && r.errors + r.non2xx === 0 ? 'PASS' : 'FAIL') : '',
    }));
  } finally {
    await close();
  }
}

/** GitHub jobs still to run; the recurring missed-delivery recovery always has its next run queued, so it is not counted. */
async function jobsLeft(db: import('knex').Knex): Promise<number> {
  const { rows } = await db.raw(
    `SELECT count(*)::int AS n FROM graphile_worker.jobs
    WHERE task_identifier LIKE 'github_%' AND task_identifier <> 'github_delivery_recovery' AND attempts < max_attempts`,
  );
  return rows[0].n;
}

/** Part 2: 1,000 check_run deliveries for 100 PRs processed end to end, posting to a fake GitHub. */
export async function webhookProcessingBench() {
  const gh: FakeGitHub = await startFakeGitHub();
  const database = await openBenchDatabase();
  await migrateJobQueue(database.db, database.url);
  const privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const config = loadConfig({
    DATABASE_URL: database.url,
    SHIPGATE_DATA_DIR: path.join(ROOT, '.shipgate/bench'),
    SHIPGATE_RATE_LIMIT_PER_MINUTE: '0',
    GHE_HOST: gh.host,
    GHE_PROTOCOL: 'http',
    APP_ID: String(gh.app.appId),
    PRIVATE_KEY: privateKey,
    WEBHOOK_SECRET: SECRET,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
  });
  const logger = createLogger(config.logLevel);
  const metrics = createMetrics(false);
  const deps = buildDeps(config, database.db, logger, metrics);
  const server = http.createServer(createServer(deps, { metrics, rawBodyRoutes: [buildGitHubWebhook(deps)] }).callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const worker = await startWorker(deps, database.url);
  const post = async (event: string, body: string) => {
    const res = await fetch(`${url}/api/v1/releases/github-webhook`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': event,
        'x-github-delivery': randomUUID(),
        'x-hub-signature-256': sign(body),
      },
      body,
    });
    if (res.status !== 202) throw new Error(`delivery answered ${res.status}`);
    await res.arrayBuffer();
  };
  const settle = async () => {
    for (let left = await jobsLeft(database.db); left > 0; left = await jobsLeft(database.db)) {
      if (process.env.BENCH_DEBUG) console.log('jobs left', left);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  try {
    const prs: { repo: string; number: number; head: string }[] = [];
    for (let r = 0; r < REPOS; r += 1) {
      const repo = `acme/service-${r}`;
      gh.app.installations.set(repo, 1);
      gh.repos.commit(repo, {
        files: { '.github/shipgate.yml': `required_checks: [${CHECKS.join(', ')}]\nrequire_reviewed_release: false\n` },
      });
      for (let n = 1; n <= PRS_PER_REPO; n += 1) prs.push({ repo, number: n, head: sha(r * 1000 + n) });
    }
    for (const pr of prs) {
      const [owner, name] = pr.repo.split('/');
      // GitHub has each pull request: the App reads who made it (a person here) before evaluating it.
      gh.app.setPullRequest(pr.repo, { number: pr.number, head_sha: pr.head, head_ref: `f-${pr.number}`, base_ref: 'main', state: 'open' });
      await post(
        'pull_request',
        JSON.stringify({
          action: 'opened',
          number: pr.number,
          pull_request: {
            number: pr.number,
            updated_at: new Date().toISOString(),
            head: { sha: pr.head, ref: `f-${pr.number}` },
            base: { ref: 'main' },
          },
          repository: { id: repoId(pr.repo), name, full_name: pr.repo, owner: { login: owner, id: 1 } },
          installation: { id: 1 },
        }),
      );
    }
    await settle();

    // 1,000 deliveries: every PR's five checks, created then completed, sent 32 at a time.
    let id = 1;
    const deliveries = prs.flatMap((pr) =>
      CHECKS.flatMap((check) => {
        const runId = id++;
        const branch = `f-${pr.number}`;
        return [checkRunBody(pr.repo, pr.head, branch, runId, check, false), checkRunBody(pr.repo, pr.head, branch, runId, check, true)];
      }),
    );
    const ordered = [...deliveries.filter((_, i) => i % 2 === 0), ...deliveries.filter((_, i) => i % 2 === 1)];
    const started = performance.now();
    for (let i = 0; i < ordered.length; i += CONNECTIONS)
      await Promise.all(ordered.slice(i, i + CONNECTIONS).map((b) => post('check_run', b)));
    const acked = performance.now();
    await settle();
    const seconds = (performance.now() - started) / 1000;

    const runs = prs.map((pr) => gh.app.checkRunsOn(pr.repo, pr.head));
    const comments = prs.map((pr) => gh.app.commentsOn(pr.repo, pr.number).filter((c) => c.body.includes('shipgate:release-gate')));
    const duplicates = runs.filter((r) => r.length !== 1).length + comments.filter((c) => c.length !== 1).length;
    const shipped = runs.filter((r) => r[0]?.conclusion === 'success').length;
    const writes = gh.requests.filter((q) => (q.method === 'POST' || q.method === 'PATCH') && !q.path.startsWith('/app/'));
    const pass = duplicates === 0 && gh.app.noopWrites === 0 && shipped === prs.length;
    return [
      {
        deliveries: ordered.length,
        'pull requests': prs.length,
        'acked in s': ((acked - started) / 1000).toFixed(2),
        'processed in s': seconds.toFixed(2),
        'deliveries/s': Math.round(ordered.length / seconds),
        'PRs SHIP': shipped,
        'duplicate comments/check runs': duplicates,
        'check-run writes': writes.filter((q) => q.path.includes('/check-runs')).length,
        'comment writes': writes.filter((q) => q.path.includes('/comments')).length,
        'writes changing nothing': gh.app.noopWrites,
        goal: 'no duplicates, no write that changes nothing',
        result: pass ? 'PASS' : 'FAIL',
      },
    ];
  } finally {
    await worker.stop();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await database.close();
    await gh.close();
  }
}

export async function runWebhookBench(): Promise<void> {
  console.log(
    `GitHub webhook ack latency, the job worker in the server's process as with \`npm start\` (${CONNECTIONS} connections, ${DURATION_SECONDS} s each in ${ROUNDS} turns with the floor; processed/s: deliveries whose job finished during the webhook's turns)`,
  );
  console.table(await webhookAckBench());
  console.log('GitHub webhook processing: 1,000 check_run deliveries for 100 pull requests, posted to a fake GitHub');
  console.table(await webhookProcessingBench());
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runBench(runWebhookBench);
