import { jest } from '@jest/globals';
import pg from 'pg';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { checkRun, decide, promote, putGate, sha, upload } from '../support/release-api.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const repo = 'acme/snapshots';
const snapshotCount = async () => Number((await t.database.db('snapshots').count({ n: '*' }))[0].n);

beforeAll(async () => {
  await putGate(t, repo, { required_checks: ['ci'], require_reviewed_release: false });
});

describe('snapshots', () => {
  it('re-polling with unchanged evidence answers the same snapshot and stores nothing', async () => {
    const commit = sha('repoll');
    await checkRun(t, { repo_root: repo, commit_sha: commit, name: 'ci', external_id: 1 });
    const first = await decide(t, repo, commit);
    const count = await snapshotCount();
    const again = await decide(t, repo, commit);
    expect(again.snapshot_id).toBe(first.snapshot_id);
    expect(again.provenance.evidence_digest).toBe(first.provenance.evidence_digest);
    expect(await snapshotCount()).toBe(count);
  });

  it('stores a new snapshot when the evidence changes, and returns to the old one when it changes back', async () => {
    const commit = sha('changes');
    await checkRun(t, { repo_root: repo, commit_sha: commit, name: 'ci', external_id: 2, completed_at: '2030-01-01T00:00:00Z' });
    const passing = await decide(t, repo, commit);
    await upload(t, { repo_root: repo, commit_sha: commit, name: 'extra', produced_at: '2020-01-01T00:00:00Z' });
    const changed = await decide(t, repo, commit);
    expect(changed.snapshot_id).not.toBe(passing.snapshot_id);
    expect(changed.provenance.evidence_digest).not.toBe(passing.provenance.evidence_digest);
    await t.database.db('evidence').where({ commit_sha: commit, name: 'extra' }).delete();
    const back = await decide(t, repo, commit);
    expect(back.snapshot_id).toBe(passing.snapshot_id);
  });

  it('stores a new snapshot when the gate changes, since the outcome is part of the address', async () => {
    const other = 'acme/snapshot-gates';
    const commit = sha('gate-change');
    await checkRun(t, { repo_root: other, commit_sha: commit, name: 'ci' });
    const before = await decide(t, other, commit);
    await putGate(t, other, { required_checks: ['ci', 'e2e'] });
    const after = await decide(t, other, commit);
    expect(after.snapshot_id).not.toBe(before.snapshot_id);
    expect(after.gate.version).toBe(1);
    expect(after.blockers.map((b: { code: string }) => b.code)).toContain('required_check_missing');
  });

  it('has no baseline before any attestation, and the attested snapshot as baseline afterwards', async () => {
    const baseRepo = 'acme/baseline';
    await putGate(t, baseRepo, { require_reviewed_release: false });
    const v1 = sha('v1');
    const v2 = sha('v2');
    await checkRun(t, { repo_root: baseRepo, commit_sha: v1, name: 'ci' });
    const first = await decide(t, baseRepo, v1);
    expect(first).toMatchObject({ decision: 'SHIP', baseline: null });
    const attested = await promote(t, { snapshot_id: first.snapshot_id, target_status: 'attested', release_label: 'v1.0.0' });
    expect(attested.status).toBe(201);
    expect((await decide(t, baseRepo, v1)).baseline).toBeNull();
    await checkRun(t, { repo_root: baseRepo, commit_sha: v2, name: 'ci' });
    const second = await decide(t, baseRepo, v2);
    expect(second.baseline).toEqual({
      snapshot_id: first.snapshot_id,
      commit_sha: v1,
      release_label: 'v1.0.0',
      attested_at: attested.body.created_at,
    });
    expect((await decide(t, 'acme/other-repo', v2)).baseline).toBeNull();
  });
});

describe('query count', () => {
  // Statements sent to the server, through knex or straight through pg: the round trips of a request.
  function countQueries() {
    const sent = jest.spyOn(pg.Client.prototype, 'query');
    return () => {
      const n = sent.mock.calls.length;
      sent.mockRestore();
      return n;
    };
  }

  async function queriesForOneDecision(repoRoot: string, commit: string) {
    await decide(t, repoRoot, commit); // first call may store the snapshot; count the steady state and the first write separately
    await decide(t, repoRoot, commit); // the snapshot stored changed the commit's state: read it again
    const stop = countQueries();
    await decide(t, repoRoot, commit);
    return stop();
  }

  it('stays the same whatever the history size', async () => {
    const small = 'acme/small-history';
    const large = 'acme/large-history';
    for (const r of [small, large])
      await putGate(t, r, { required_checks: ['ci'], required_evidence: ['sbom'], require_reviewed_release: false });
    await checkRun(t, { repo_root: small, commit_sha: sha('s0'), name: 'ci' });
    const db = t.database.db;
    // 300 commits x 3 check runs and 3 uploads, 300 attested snapshots, 300 executions (10 on the commit asked about) and 40 check runs on it.
    await db.raw(
      `INSERT INTO evidence (repo_root, commit_sha, source, kind, name, status, conclusion, produced_at)
      SELECT ?, encode(sha256(c::text::bytea), 'hex')::char(40), s, CASE s WHEN 'check_run' THEN 'check_run' ELSE 'scan' END,
        'item-' || i, CASE s WHEN 'check_run' THEN 'completed' ELSE 'passed' END, CASE s WHEN 'check_run' THEN 'success' END, now() - (i || ' minutes')::interval
      FROM generate_series(1, 300) c, generate_series(1, 3) i, unnest(ARRAY['check_run', 'upload']) s`,
      [large],
    );
    const target = sha('l0');
    await db.raw(
      `INSERT INTO evidence (repo_root, commit_sha, source, kind, name, status, conclusion, produced_at)
      SELECT ?, ?, 'check_run', 'check_run', 'ci', 'completed', 'success', now() - (i || ' minutes')::interval FROM generate_series(1, 40) i`,
      [large, target],
    );
    await db.raw(
      `INSERT INTO snapshots (repo_root, commit_sha, evidence_digest, decision, blockers, provenance, status, attested_at)
      SELECT ?, encode(sha256(c::text::bytea), 'hex')::char(40), md5(c::text), 'SHIP', '[]', '{"gate":{"version":1,"digest":"x"},"check_runs":[],"evidence":[],"workflows":[]}',
        'attested', now() - (c || ' minutes')::interval FROM generate_series(1, 300) c`,
      [large],
    );
    await db.raw(
      `INSERT INTO executions (owner_id, task, policy_name, policy_version, policy_digest, stage_role, budget_cents, provider, model, status, verdict, repo_root, commit_sha)
      SELECT ?, 't', 'default', 1, 'x', 'worker', 1500, 'openai', 'gpt-4o-mini', 'completed', 'compliant', ?,
        CASE WHEN c <= 10 THEN ? ELSE encode(sha256(c::text::bytea), 'hex')::char(40) END FROM generate_series(1, 300) c`,
      [t.admin.id, large, target],
    );
    const smallCount = await queriesForOneDecision(small, sha('s0'));
    const largeCount = await queriesForOneDecision(large, target);
    expect(largeCount).toBe(smallCount);
    // The caller's key lookup and the commit's change counts: its state is the one this server read
    // at the same counts (ARCHITECTURE.md, "Process-local state", the decision's cache).
    expect(largeCount).toBeLessThanOrEqual(2);
  });

  it('reads the state once and writes the snapshot once when the evidence changed', async () => {
    const r = 'acme/write-count';
    const commit = sha('w0');
    await checkRun(t, { repo_root: r, commit_sha: commit, name: 'ci' });
    await decide(t, r, commit);
    await decide(t, r, commit);
    let stop = countQueries();
    await decide(t, r, commit);
    const steady = stop();
    await checkRun(t, { repo_root: r, commit_sha: commit, name: 'lint' });
    stop = countQueries();
    await decide(t, r, commit);
    // The changed counts send the commit-state statement (one read of everything) and the new snapshot is stored.
    expect(stop()).toBe(steady + 2);
  });
});
