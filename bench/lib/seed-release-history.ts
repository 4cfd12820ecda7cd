import type { Knex } from 'knex';
import { gateDigest, gateSchema } from '../../core/release/gate.js';

export const HISTORY = { repos: 100, commits: 10_000, executionsPerCommit: 10, toolCallsPerExecution: 10 };

export const BENCH_GATE = gateSchema.parse({
  required_checks: ['ci/test', 'lint'],
  required_evidence: ['sbom'],
  require_reviewed_release: true,
});

/** SQL for commit number `c`: its repository and its SHA. */
const REPO = (c: string) => `'bench/repo-' || (${c} % ${HISTORY.repos})`;
const SHA = (c: string) => `left(encode(sha256(('commit-' || ${c})::bytea), 'hex'), 40)`;

/** Which commits to seed (numbers from..to) and how many tool calls each execution gets. */
export interface SeedRange {
  from: number;
  to: number;
  toolCallsPerExecution: number;
  /** False: commits never decided yet (no snapshot), for measuring first decisions. */
  decided?: boolean;
}

/**
 * Seeds the release history with bulk INSERT ... SELECT generate_series: per commit two check
 * runs and an upload, a snapshot (every fifth attested), and ten executions (a reviewer and an
 * admitted release stage of one workflow, eight standalone workers) of ten tool calls each,
 * each with an execution certificate (`envelope`, signed by the server's key). A later range
 * grows the same history (the growth bench); the gates and branch heads come with commit 1.
 */
export async function seedReleaseHistory(
  db: Knex,
  ownerId: string,
  envelope: unknown,
  range: SeedRange = { from: 1, to: HISTORY.commits, toolCallsPerExecution: HISTORY.toolCallsPerExecution },
): Promise<void> {
  // Bulk rows without their per-row triggers (the change counters of migration 014 and the
  // foreign-key checks, which these rows satisfy by construction): the counters are bumped
  // once per commit and repository at the end, in the same transaction, as the triggers would.
  await db.transaction(async (trx) => {
    await trx.raw('SET LOCAL session_replication_role = replica');
    await insertHistory(trx, ownerId, envelope, range);
    await trx.raw(`INSERT INTO release_commit_versions AS v (repo_root, commit_sha, version)
      SELECT ${REPO('c')}, ${SHA('c')}, 1 FROM generate_series(${range.from}, ${range.to}) c
      ON CONFLICT (repo_root, commit_sha) DO UPDATE SET version = v.version + 1`);
    await trx.raw(`INSERT INTO release_repo_versions AS v (repo_root, version)
      SELECT 'bench/repo-' || r, 1 FROM generate_series(0, ${HISTORY.repos - 1}) r
      ON CONFLICT (repo_root) DO UPDATE SET version = v.version + 1`);
  });
  // As autovacuum leaves a table that has settled: statistics fresh and the visibility map set
  // (index-only scans read no heap), and no autovacuum pass wandering into the measurements.
  await db.raw('VACUUM (ANALYZE)');
}

async function insertHistory(db: Knex, ownerId: string, envelope: unknown, range: SeedRange): Promise<void> {
  const { executionsPerCommit: e } = HISTORY;
  const s = range.toolCallsPerExecution;
  const series = `generate_series(${range.from}, ${range.to}) c`;
  if (range.from === 1)
    await db.raw(
      `INSERT INTO gate_versions (repo_root, version, digest, gate, source)
    SELECT 'bench/repo-' || r, 1, ?, ?::jsonb, 'api' FROM generate_series(0, ${HISTORY.repos - 1}) r`,
      [gateDigest(BENCH_GATE), JSON.stringify(BENCH_GATE)],
    );
  await db.raw(`INSERT INTO evidence (repo_root, commit_sha, source, kind, name, status, conclusion, external_id, produced_at)
    SELECT ${REPO('c')}, ${SHA('c')}, 'check_run', 'check_run', n, 'completed', 'success', c || n, now() - (c % 600) * interval '1 minute'
    FROM ${series}, unnest(ARRAY['ci/test', 'lint']) n`);
  await db.raw(`INSERT INTO evidence (repo_root, commit_sha, source, kind, name, status, produced_at)
    SELECT ${REPO('c')}, ${SHA('c')}, 'upload', 'sbom', 'sbom', 'passed', now() - (c % 600) * interval '1 minute' FROM ${series}`);
  if (range.from === 1)
    await db.raw(`INSERT INTO refs (repo_root, ref, commit_sha, observed_at)
    SELECT DISTINCT ON (c % ${HISTORY.repos}) ${REPO('c')}, 'main', ${SHA('c')}, now() FROM ${series} ORDER BY c % ${HISTORY.repos}, c DESC`);
  if (range.decided !== false)
    await db.raw(`INSERT INTO snapshots (repo_root, commit_sha, evidence_digest, decision, blockers, provenance, status, seen_at, attested_at)
    SELECT ${REPO('c')}, ${SHA('c')}, md5('snapshot-' || c), 'SHIP', '[]',
      '{"gate":{"version":1,"digest":"seed"},"check_runs":[],"evidence":[],"workflows":[]}',
      CASE WHEN c % 5 = 0 THEN 'attested' ELSE 'candidate' END, now() - interval '1 day' + c * interval '1 second',
      CASE WHEN c % 5 = 0 THEN now() - interval '1 day' + c * interval '1 second' END
    FROM ${series}`);
  await db.raw(
    `INSERT INTO executions (id, owner_id, workflow_id, stage_id, task, status, verdict, policy_name, policy_version, policy_digest,
      stage_role, budget_cents, cost_cents, provider, model, upstream_execution_ids, repo_root, commit_sha, started_at, finished_at)
    SELECT md5('exec-' || c || '-' || k)::uuid, ?, CASE WHEN k <= 2 THEN md5('wf-' || c)::uuid END,
      CASE k WHEN 1 THEN 'review' WHEN 2 THEN 'release' ELSE 'worker-' || k END, 'bench task', 'completed', 'compliant',
      'default', 1, repeat('0', 64), CASE k WHEN 1 THEN 'reviewer' WHEN 2 THEN 'release' ELSE 'worker' END, 1500, 12, 'openai', 'gpt-4o-mini',
      CASE WHEN k = 2 THEN jsonb_build_array(md5('exec-' || c || '-1')::uuid::text) ELSE '[]'::jsonb END,
      ${REPO('c')}, ${SHA('c')}, now(), now()
    FROM ${series}, generate_series(1, ${e}) k`,
    [ownerId],
  );
  await db.raw(`INSERT INTO artifacts (execution_id, seq, kind, name, content, digest, approved_for_release)
    SELECT md5('exec-' || c || '-1')::uuid, ${s}, 'review', 'review', 'approved', repeat('0', 64), true FROM ${series}`);
  await db.raw(
    `INSERT INTO certificates (id, execution_id, kind, theorem, plan_hash, verified_properties, prover, issued_at, digest, envelope)
    SELECT md5('cert-' || c || '-' || k)::uuid, md5('exec-' || c || '-' || k)::uuid, 'execution', 'final_output_safe', repeat('0', 64), '[]',
      'shipgate-rules/1', now(), repeat('0', 64), ?::jsonb
    FROM ${series}, generate_series(1, ${e}) k`,
    [JSON.stringify(envelope)],
  );
  if (s > 0)
    await db.raw(`INSERT INTO tool_calls (execution_id, seq, call_id, tool, arguments, capability, verdict, result_digest, output, duration_ms)
    SELECT md5('exec-' || c || '-' || k)::uuid, q, 'call_' || q, 'repo_read', '{"path":"README.md"}', 'repo:read', 'allowed', repeat('0', 64), 'ok', 1
    FROM ${series}, generate_series(1, ${e}) k, generate_series(1, ${s}) q`);
}

/** The repository and SHA of commit number `c` (as the seed computes them). */
export async function commitRefs(db: Knex, numbers: number[]): Promise<{ repo: string; sha: string }[]> {
  const { rows } = await db.raw<{ rows: { repo: string; sha: string }[] }>(
    `SELECT ${REPO('c')} AS repo, ${SHA('c')} AS sha FROM unnest(?::int[]) c`,
    [numbers],
  );
  return rows;
}
