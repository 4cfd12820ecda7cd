/**
 * How the decision's cost grows (docs/benchmarks.md): with history (1k / 10k / 100k commits,
 * 10 executions each: 10k / 100k / 1M executions, every one with an execution certificate) and
 * with one commit's own evidence (1 / 50 / 500 check runs). The history grows in one database,
 * level after level; at each, the same in-process decision (decideRelease on the PostgreSQL
 * ports, one connection, no HTTP) polls sampled commits, each poll after a change to its commit
 * (so the state is read from the database, not the server's cache; the cached figure is shown
 * beside it), and EXPLAIN (ANALYZE, BUFFERS) of the commit-state statement shows the work
 * PostgreSQL does for one of them. Each level also brings commits never decided, whose first
 * decisions (one at a time, each storing the commit's first snapshot) are timed after a
 * checkpoint, as a server with that history meets them, with the WAL each one wrote. Goals:
 * flat in history (the largest level's medians, polled and first, within 1.5x the smallest's),
 * at most linear in the commit's evidence (500 check runs within 1.5 x 10 the cost of 50).
 *
 * Tool calls are not seeded here: the decision never reads them (the load bench stores 1M).
 *
 *   node bin/run-ts.js bench/growth.ts     (DATABASE_URL optional; else embedded PostgreSQL)
 *   BENCH_GROWTH_COMMITS=1000,10000,100000 (the history levels)
 */
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
import { createSigner } from '../core/certificates/create-signer.js';
import { createVerifier } from '../core/certificates/create-verifier.js';
import { publicJwkOf } from '../core/certificates/public-jwk.js';
import { resourceUris } from '../core/certificates/resource-uris.js';
import { IN_TOTO_STATEMENT_TYPE } from '../core/certificates/types.js';
import { decideRelease } from '../core/release/decide-release.js';
import type { ReleasePorts } from '../core/release/release-ports.js';
import { COMMIT_STATE } from '../db/stores/release/commit-state.js';
import { createReleasePorts } from '../db/stores/release/postgres-release-ports.js';
import { loadConfig } from '../server/load-config.js';
import { openBenchDatabase, runBench } from './lib/bench-database.js';
import { commitRefs, HISTORY, seedReleaseHistory } from './lib/seed-release-history.js';
import { percentile } from './lib/timing-stats.js';

/** History levels in commits (10 executions each); `npm run bench` passes a smaller top level to stay within 5 minutes. */
export const FULL_LEVELS = [1_000, 10_000, 100_000];
const levelsFromEnv = () => process.env.BENCH_GROWTH_COMMITS?.split(',').map(Number);
const CHECK_RUNS = [1, 50, 500];
const SAMPLE = 200;
const POLLS = 600;
/** Commits never decided that each level brings; each is decided once, one at a time. */
const FIRST_DECISIONS = 100;
const HISTORY_GOAL = 1.5;
const LINEAR_SLACK = 1.5;

const ms = (v: number) => +v.toFixed(3);

type Commit = { repo: string; sha: string };

/**
 * Marks the commit's state changed (its change counter bumped, as any write to it does), so the
 * next decision reads the state from the database again instead of the server's cached copy.
 */
const changed = (db: Knex) => async (c: Commit) => {
  await db.raw('UPDATE release_commit_versions SET version = version + 1 WHERE repo_root = ? AND commit_sha = ?', [c.repo, c.sha]);
};

/**
 * Median and p99 of polling `commits` (each decided once before, so nothing is written); with
 * `before`, each poll follows it, untimed.
 */
async function pollTimes(ports: ReleasePorts, commits: Commit[], polls = POLLS, before?: (c: Commit) => Promise<void>) {
  for (const c of commits) await decideRelease(ports, c.repo, c.sha);
  const times: number[] = [];
  for (let i = 0; i < polls; i++) {
    const c = commits[i % commits.length];
    await before?.(c);
    const started = performance.now();
    await decideRelease(ports, c.repo, c.sha);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { median: percentile(times, 0.5), p99: percentile(times, 0.99) };
}

/**
 * The first decision of each of `commits` (never decided: each stores the commit's first
 * snapshot), one at a time, after a checkpoint: as in a server whose history is older than its
 * last checkpoint, where the first change to a page writes the whole page to the WAL. Median and
 * p99 of the decisions, and the median WAL bytes each wrote.
 */
async function firstDecisionTimes(db: Knex, ports: ReleasePorts, commits: Commit[]) {
  // Needs superuser or pg_checkpoint (an embedded server, most DATABASE_URLs of a test machine).
  await db.raw('CHECKPOINT').catch(() => console.log('growth: CHECKPOINT not allowed here; first decisions measured without one'));
  const times: number[] = [];
  const wal: number[] = [];
  const walPosition = async () => (await db.raw('SELECT pg_current_wal_insert_lsn() AS lsn')).rows[0].lsn as string;
  for (const c of commits) {
    const before = await walPosition();
    const started = performance.now();
    await decideRelease(ports, c.repo, c.sha);
    times.push(performance.now() - started);
    wal.push(Number((await db.raw('SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), ?) AS bytes', [before])).rows[0].bytes));
  }
  times.sort((a, b) => a - b);
  wal.sort((a, b) => a - b);
  return { median: percentile(times, 0.5), p99: percentile(times, 0.99), walBytes: percentile(wal, 0.5) };
}

/** PostgreSQL's own time and buffers for the commit-state statement of one commit (planned as a prepared statement). */
async function explain(db: Knex, c: { repo: string; sha: string }) {
  const connection = await db.client.acquireConnection();
  try {
    await connection.query(`PREPARE growth_state(text, text) AS ${COMMIT_STATE.text}`);
    const args = `${connection.escapeLiteral(c.repo)}, ${connection.escapeLiteral(c.sha)}`;
    for (let i = 0; i < 6; i++) await connection.query(`EXECUTE growth_state(${args})`); // past the custom plans
    const { rows } = await connection.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE growth_state(${args})`);
    await connection.query('DEALLOCATE growth_state');
    const plan = rows[0]['QUERY PLAN'][0];
    return { sqlMs: ms(plan['Execution Time']), buffers: plan.Plan['Shared Hit Blocks'] + plan.Plan['Shared Read Blocks'] };
  } finally {
    await db.client.releaseConnection(connection);
  }
}

/** Commit `sha` of bench/repo-0 with `n` successful check runs (two of them the required ones) and its SBOM. */
async function seedEvidence(db: Knex, sha: string, n: number): Promise<void> {
  await db.raw(
    `INSERT INTO evidence (repo_root, commit_sha, source, kind, name, status, conclusion, external_id, produced_at)
    SELECT 'bench/repo-0', ?, 'check_run', 'check_run', CASE i WHEN 1 THEN 'ci/test' WHEN 2 THEN 'lint' ELSE 'check-' || i END,
      'completed', 'success', ? || '-' || i, now() FROM generate_series(1, ?::int) i`,
    [sha, sha, n],
  );
  await db.raw(
    `INSERT INTO evidence (repo_root, commit_sha, source, kind, name, status, produced_at) VALUES ('bench/repo-0', ?, 'upload', 'sbom', 'sbom', 'passed', now())`,
    [sha],
  );
}

export interface GrowthTables {
  history: Record<string, string | number>[];
  evidence: Record<string, string | number>[];
}

export async function runGrowthBench(
  levels: number[] = levelsFromEnv() ?? FULL_LEVELS,
  log: (line: string) => void = console.log,
): Promise<GrowthTables> {
  const database = await openBenchDatabase();
  try {
    const key = generateKeyPairSync('ed25519').privateKey;
    const pem = key.export({ format: 'pem', type: 'pkcs8' }) as string;
    const signer = createSigner(createPrivateKey(pem));
    const ports = createReleasePorts(
      database.db,
      signer,
      createVerifier([publicJwkOf(key)]),
      resourceUris(),
      loadConfig({}).decisionCacheCommits,
    );
    const [{ id: ownerId }] = await database
      .db('users')
      .insert({ email: 'bench@example.com', name: 'bench', role: 'OPERATOR', password_hash: 'unused' })
      .returning('id');
    const envelope = signer.sign({
      _type: IN_TOTO_STATEMENT_TYPE,
      subject: [{ name: 'bench', digest: { sha256: '0'.repeat(64) } }],
      predicateType: 'https://shipgate.dev/attestations/final-output-safe/v1',
      predicate: {},
    });

    const history: GrowthTables['history'] = [];
    let seeded = 0;
    for (const commits of levels) {
      const started = Date.now();
      await seedReleaseHistory(database.db, ownerId, envelope, { from: seeded + 1, to: commits, toolCallsPerExecution: 0 });
      const undecided = { from: commits + 1, to: commits + FIRST_DECISIONS };
      await seedReleaseHistory(database.db, ownerId, envelope, { ...undecided, toolCallsPerExecution: 0, decided: false });
      seeded = undecided.to;
      log(
        `growth: ${commits} commits / ${commits * HISTORY.executionsPerCommit} executions seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
      const sample = await commitRefs(
        database.db,
        Array.from({ length: SAMPLE }, (_, i) => 1 + Math.floor((i * commits) / SAMPLE)),
      );
      const { median, p99 } = await pollTimes(ports, sample, POLLS, changed(database.db));
      const cached = await pollTimes(ports, sample);
      const first = await firstDecisionTimes(
        database.db,
        ports,
        await commitRefs(
          database.db,
          Array.from({ length: FIRST_DECISIONS }, (_, i) => undecided.from + i),
        ),
      );
      history.push({
        commits,
        executions: commits * HISTORY.executionsPerCommit,
        'decision median ms': ms(median),
        'decision p99 ms': ms(p99),
        'cached median ms': ms(cached.median),
        'first decision median ms': ms(first.median),
        'first decision p99 ms': ms(first.p99),
        'first decision WAL bytes': first.walBytes,
        ...(await explain(database.db, sample[0])),
      });
    }
    const vsSmallest = (row: GrowthTables['history'][number], column: string) => (row[column] as number) / (history[0][column] as number);
    for (const row of history) {
      const ratios = [vsSmallest(row, 'decision median ms'), vsSmallest(row, 'first decision median ms')];
      row['vs smallest (polled, first)'] = ratios.map((r) => `${r.toFixed(2)}x`).join(', ');
      row.result =
        row === history[0] ? '' : ratios.every((r) => r <= HISTORY_GOAL) ? `PASS (<= ${HISTORY_GOAL}x)` : `FAIL (> ${HISTORY_GOAL}x)`;
    }

    const evidence: GrowthTables['evidence'] = [];
    for (const n of CHECK_RUNS) {
      const sha = `e${String(n).padStart(39, '0')}`;
      await seedEvidence(database.db, sha, n);
      const commit = { repo: 'bench/repo-0', sha };
      const { median, p99 } = await pollTimes(ports, [commit], POLLS / 3, changed(database.db));
      evidence.push({
        'check runs': n,
        'decision median ms': ms(median),
        'decision p99 ms': ms(p99),
        ...(await explain(database.db, commit)),
      });
    }
    const at = (n: number) => evidence.find((r) => r['check runs'] === n)!['decision median ms'] as number;
    for (const row of evidence) {
      const n = row['check runs'] as number;
      const ratio = at(n) / at(1);
      row['vs 1 check run'] = `${ratio.toFixed(2)}x`;
      row.result = '';
    }
    // At most linear: ten times the check runs cost at most ten times (with slack for noise).
    const linear = at(500) / at(50);
    evidence[evidence.length - 1].result =
      linear <= 10 * LINEAR_SLACK
        ? `PASS (500 vs 50: ${linear.toFixed(2)}x <= ${10 * LINEAR_SLACK}x)`
        : `FAIL (500 vs 50: ${linear.toFixed(2)}x)`;
    return { history, evidence };
  } finally {
    await database.close();
  }
}

export function printGrowth(tables: GrowthTables): void {
  console.log(
    `Decision cost vs history (in-process, one connection, ${POLLS} polls over ${SAMPLE} commits per level, each after a change to its commit, so its state is read again; cached = the same polls with nothing changed; first = ${FIRST_DECISIONS} commits never decided, one at a time after a checkpoint, each storing its first snapshot; SQL = EXPLAIN ANALYZE of one commit's state)`,
  );
  console.table(tables.history);
  console.log("Decision cost vs one commit's evidence (check runs of one commit, in the largest history)");
  console.table(tables.evidence);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  await runBench(async () => printGrowth(await runGrowthBench()));
