import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import pg from 'pg';
import { createSigner } from '../../core/certificates/create-signer.js';
import { createVerifier } from '../../core/certificates/create-verifier.js';
import { publicJwkOf } from '../../core/certificates/public-jwk.js';
import { IN_TOTO_STATEMENT_TYPE } from '../../core/certificates/types.js';
import { readCommitState, type CommitState } from '../../core/release/read-commit-state.js';
import { createCachingVerifier } from '../../core/release/caching-verifier.js';
import { COMMIT_STATE } from '../../db/stores/release/commit-state.js';
import { createSnapshotStore } from '../../db/stores/release/postgres-snapshot-store.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

// A server keeps each commit's state with the change counts it was read at (migration 014) and
// serves it while they are unchanged (ARCHITECTURE.md, "Process-local state", the decision's
// cache). Each test changes one thing a decision reads, straight in the database as another
// replica would, and expects the next read to see it.
const key = generateKeyPairSync('ed25519').privateKey;
const signer = createSigner(key);
const envelope = JSON.stringify(
  signer.sign({
    _type: IN_TOTO_STATEMENT_TYPE,
    subject: [{ name: 'x', digest: { sha256: '0'.repeat(64) } }],
    predicateType: 'p',
    predicate: {},
  }),
);
let database: TestDatabase;
let ownerId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  [{ id: ownerId }] = await database
    .db('users')
    .insert({ email: 'cache@example.com', name: 'c', role: 'OPERATOR', password_hash: 'x' })
    .returning('id');
});
afterAll(async () => {
  await database.drop();
});

const sql = (text: string, values: unknown[] = []) => database.db.raw(text, values as never);

/** A repository's commit with a gate, a check run, a snapshot and a reviewed-release workflow (reviewer approved, release admitted). */
async function commitWithWorkflow() {
  const repo = `acme/${randomUUID()}`;
  const sha = randomUUID().replaceAll('-', '').padEnd(40, '0');
  const workflow = randomUUID();
  const [reviewer, release] = [randomUUID(), randomUUID()];
  await sql(`INSERT INTO gate_versions (repo_root, version, digest, gate, source) VALUES (?, 1, 'd1', '{}', 'api')`, [repo]);
  await sql(
    `INSERT INTO evidence (repo_root, commit_sha, source, kind, name, status, conclusion, produced_at)
    VALUES (?, ?, 'check_run', 'check_run', 'ci', 'completed', 'success', now())`,
    [repo, sha],
  );
  await sql(
    `INSERT INTO snapshots (repo_root, commit_sha, evidence_digest, decision, blockers, provenance) VALUES (?, ?, 'first', 'SHIP', '[]', '{}')`,
    [repo, sha],
  );
  await sql(`INSERT INTO workflows (id, owner_id, name, status, repo_root, commit_sha) VALUES (?, ?, 'w', 'completed', ?, ?)`, [
    workflow,
    ownerId,
    repo,
    sha,
  ]);
  for (const [id, role, upstream] of [
    [reviewer, 'reviewer', []],
    [release, 'release', [reviewer]],
  ] as const) {
    await sql(
      `INSERT INTO executions (id, owner_id, workflow_id, stage_id, task, status, verdict, policy_name, policy_version, policy_digest,
        stage_role, budget_cents, provider, model, upstream_execution_ids, repo_root, commit_sha)
      VALUES (?, ?, ?, ?, 't', 'completed', 'compliant', 'default', 1, 'x', ?, 100, 'openai', 'm', ?::jsonb, ?, ?)`,
      [id, ownerId, workflow, role, role, JSON.stringify(upstream), repo, sha],
    );
    await sql(
      `INSERT INTO certificates (id, execution_id, kind, theorem, plan_hash, prover, issued_at, digest, envelope)
      VALUES (?, ?, 'execution', 't', 'p', 'x', now(), 'd', ?::jsonb)`,
      [randomUUID(), id, envelope],
    );
    await sql(
      `INSERT INTO workflow_stages (workflow_id, position, stage_id, name, task, stage_role, policy_name, policy_version, policy_digest,
        budget_cents, provider, model, status, execution_id)
      VALUES (?, ?, ?, ?, 't', ?, 'default', 1, 'x', 100, 'openai', 'm', 'completed', ?)`,
      [workflow, role === 'reviewer' ? 0 : 1, role, role, role, id],
    );
  }
  await sql(
    `INSERT INTO artifacts (execution_id, seq, kind, name, content, digest, approved_for_release) VALUES (?, 1, 'review', 'review', 'ok', 'd', true)`,
    [reviewer],
  );
  return { repo, sha, workflow, reviewer, release };
}

/** Reads the commit's state on a reader of its own; says whether the whole state was read from the database. */
function readerOf(repo: string, sha: string) {
  const ports = { store: createSnapshotStore(database.db, 10), cachingVerifier: createCachingVerifier(createVerifier([publicJwkOf(key)])) };
  return async (): Promise<{ state: CommitState; readFromDatabase: boolean }> => {
    const sent = jest.spyOn(pg.Client.prototype, 'query');
    try {
      const state = await readCommitState(ports, repo, sha);
      const names = sent.mock.calls.map(([config]) => (config as { name?: string }).name);
      return { state, readFromDatabase: names.includes(COMMIT_STATE.name) };
    } finally {
      sent.mockRestore();
    }
  };
}

/** Reads twice (the second from the cache), applies `change`, and returns the next read. */
async function afterChange(c: { repo: string; sha: string }, change: () => Promise<unknown>) {
  const read = readerOf(c.repo, c.sha);
  const before = await read();
  expect(before.readFromDatabase).toBe(true);
  expect(await read()).toEqual({ state: before.state, readFromDatabase: false });
  await change();
  return { before: before.state, after: await read() };
}

const executionOf = (state: CommitState, id: string) => state.workflows.flatMap((w) => w.executions).find((e) => e.execution_id === id)!;

describe("the decision's cache of a commit's state", () => {
  it('sees a new gate version of the repository', async () => {
    const c = await commitWithWorkflow();
    const { after } = await afterChange(c, () =>
      sql(`INSERT INTO gate_versions (repo_root, version, digest, gate, source) VALUES (?, 2, 'd2', '{}', 'api')`, [c.repo]),
    );
    expect(after).toMatchObject({ readFromDatabase: true, state: { gate: { version: 2 } } });
  });

  it('sees new and changed evidence', async () => {
    const c = await commitWithWorkflow();
    const { after } = await afterChange(c, () =>
      sql(`UPDATE evidence SET conclusion = 'failure' WHERE repo_root = ? AND commit_sha = ?`, [c.repo, c.sha]),
    );
    expect(after.state.evidence.checkRuns.map((r) => r.conclusion)).toEqual(['failure']);
  });

  it("sees an execution's status and verdict change, and a new execution bound to the commit", async () => {
    const c = await commitWithWorkflow();
    const { after } = await afterChange(c, () => sql(`UPDATE executions SET verdict = 'non_compliant' WHERE id = ?`, [c.release]));
    expect(executionOf(after.state, c.release).verdict).toBe('non_compliant');
    const { after: added } = await afterChange(c, () =>
      sql(
        `INSERT INTO executions (owner_id, task, status, policy_name, policy_version, policy_digest, stage_role, budget_cents, provider, model, repo_root, commit_sha)
        VALUES (?, 't', 'running', 'default', 1, 'x', 'worker', 100, 'openai', 'm', ?, ?)`,
        [ownerId, c.repo, c.sha],
      ),
    );
    expect(added.state.workflows.map((w) => w.standalone).sort()).toEqual([false, true]);
  });

  it("does not read again for what it does not show: a provider turn's cost, a tool call's certificate", async () => {
    const c = await commitWithWorkflow();
    const read = readerOf(c.repo, c.sha);
    await read();
    await sql(`UPDATE executions SET cost_cents = cost_cents + 5 WHERE id = ?`, [c.release]);
    await sql(
      `INSERT INTO certificates (id, execution_id, kind, theorem, plan_hash, prover, issued_at, digest, envelope)
      VALUES (?, ?, 'tool_call', 't', 'p', 'x', now(), 'd', '{}')`,
      [randomUUID(), c.release],
    );
    expect((await read()).readFromDatabase).toBe(false);
  });

  it('sees an execution certificate altered in place, and a new one', async () => {
    const c = await commitWithWorkflow();
    const { before, after } = await afterChange(c, () =>
      sql(`UPDATE certificates SET envelope = jsonb_set(envelope, '{payload}', '"eA=="') WHERE execution_id = ?`, [c.release]),
    );
    expect(executionOf(before, c.release).certificate_valid).toBe(true);
    expect(executionOf(after.state, c.release).certificate_valid).toBe(false);
    const { after: renewed } = await afterChange(c, () =>
      sql(
        `INSERT INTO certificates (id, execution_id, kind, theorem, plan_hash, prover, issued_at, digest, envelope)
        VALUES (?, ?, 'execution', 't', 'p', 'x', now(), 'd', ?::jsonb)`,
        [randomUUID(), c.release, envelope],
      ),
    );
    expect(executionOf(renewed.state, c.release).certificate_valid).toBe(true);
  });

  it("sees the review's approval withdrawn (the release is no longer admitted)", async () => {
    const c = await commitWithWorkflow();
    const { before, after } = await afterChange(c, () =>
      sql(`UPDATE artifacts SET approved_for_release = false WHERE execution_id = ?`, [c.reviewer]),
    );
    expect(before.workflows[0].release?.admission).toBe('admitted');
    expect(after.state.workflows[0].release?.admission).not.toBe('admitted');
  });

  it('sees a workflow and its stages change', async () => {
    const c = await commitWithWorkflow();
    const { after } = await afterChange(c, () => sql(`UPDATE workflows SET status = 'failed' WHERE id = ?`, [c.workflow]));
    expect(after.state.workflows[0].status).toBe('failed');
    const { before, after: staged } = await afterChange(c, () =>
      sql(`UPDATE workflow_stages SET blocked_reasons = '["upstream_failed"]' WHERE workflow_id = ? AND stage_id = 'release'`, [
        c.workflow,
      ]),
    );
    expect(staged.state.workflows).not.toEqual(before.workflows);
  });

  it("sees the commit's new snapshot, and another commit of the repository attested (the baseline)", async () => {
    const c = await commitWithWorkflow();
    const { after } = await afterChange(c, () =>
      sql(
        `INSERT INTO snapshots (repo_root, commit_sha, evidence_digest, decision, blockers, provenance) VALUES (?, ?, 'second', 'NO_SHIP', '[]', '{}')`,
        [c.repo, c.sha],
      ),
    );
    expect(after.state.latest?.evidence_digest).toBe('second');
    const other = 'f'.repeat(40);
    await sql(
      `INSERT INTO snapshots (repo_root, commit_sha, evidence_digest, decision, blockers, provenance) VALUES (?, ?, 'other', 'SHIP', '[]', '{}')`,
      [c.repo, other],
    );
    const { before, after: attested } = await afterChange(c, () =>
      sql(`UPDATE snapshots SET status = 'attested', attested_at = now() WHERE repo_root = ? AND commit_sha = ?`, [c.repo, other]),
    );
    expect(before.attested).toEqual([]);
    expect(attested.state.attested.map((s) => s.commit_sha)).toEqual([other]);
  });

  it('sees a change another server made through the same database, and keeps nothing a rolled-back change wrote', async () => {
    const c = await commitWithWorkflow();
    const read = readerOf(c.repo, c.sha);
    await read();
    await database.db
      .transaction(async (trx) => {
        await trx.raw(`UPDATE executions SET status = 'failed' WHERE id = ?`, [c.release]);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect((await read()).readFromDatabase).toBe(false);
    await sql(`UPDATE executions SET status = 'failed' WHERE id = ?`, [c.release]);
    expect(executionOf((await read()).state, c.release).status).toBe('failed');
  });

  it("sees the pull request's authorship read for the commit (migration 021)", async () => {
    const c = await commitWithWorkflow();
    await sql(`INSERT INTO pull_request_authorship (repo_root, commit_sha, number, status) VALUES (?, ?, 9, 'pending')`, [c.repo, c.sha]);
    const { before, after } = await afterChange(c, () =>
      sql(
        `UPDATE pull_request_authorship SET status = 'unreadable', reason = 'GitHub answered 404' WHERE repo_root = ? AND commit_sha = ?`,
        [c.repo, c.sha],
      ),
    );
    expect(before.authorship.record?.status).toBe('pending');
    expect(after).toMatchObject({ readFromDatabase: true, state: { authorship: { record: { status: 'unreadable' } } } });
  });

  it("sees governed work bound to another commit of the commit's pull request", async () => {
    const c = await commitWithWorkflow();
    const earlier = 'e'.repeat(40);
    await sql(
      `INSERT INTO pull_request_authorship (repo_root, commit_sha, number, status, commit_shas) VALUES (?, ?, 9, 'read', ARRAY[?, ?])`,
      [c.repo, c.sha, earlier, c.sha],
    );
    const { before, after } = await afterChange(c, () =>
      sql(
        `INSERT INTO executions (owner_id, task, status, verdict, policy_name, policy_version, policy_digest, stage_role, budget_cents, provider, model, repo_root, commit_sha)
        VALUES (?, 't', 'completed', 'compliant', 'default', 1, 'x', 'worker', 100, 'openai', 'm', ?, ?)`,
        [ownerId, c.repo, earlier],
      ),
    );
    expect(before.authorship.governedCommits).toEqual([]);
    expect(after).toMatchObject({ readFromDatabase: true, state: { authorship: { governedCommits: [earlier] } } });
  });

  it("a merge group's commit sees its group recorded, its pull request's authorship and governed work (migration 027)", async () => {
    const c = await commitWithWorkflow();
    const [head, where] = ['f'.repeat(40), 'WHERE repo_root = ? AND commit_sha = ?'];
    const authorship = (after: { state: CommitState }) => after.state.authorship;
    await sql(
      `INSERT INTO pull_request_authorship (repo_root, commit_sha, number, status, commit_shas) VALUES (?, ?, 7, 'read', ARRAY[?])`,
      [c.repo, head, head],
    );
    const group = `INSERT INTO github_merge_groups (repo_root, head_sha, head_ref, base_ref, pull_request_number, pull_request_head_sha)
      VALUES (?, ?, 'gh-readonly-queue/main/pr-7', 'main', 7, ?)`;
    const recorded = (await afterChange(c, () => sql(group, [c.repo, c.sha, head]))).after;
    expect([recorded.readFromDatabase, authorship(recorded).record?.status]).toEqual([true, 'read']);
    const unreadable = (
      await afterChange(c, () => sql(`UPDATE pull_request_authorship SET status = 'unreadable' ${where}`, [c.repo, head]))
    ).after;
    expect([unreadable.readFromDatabase, authorship(unreadable).record?.status]).toEqual([true, 'unreadable']);
    const work = `INSERT INTO executions (owner_id, task, status, verdict, policy_name, policy_version, policy_digest, stage_role,
      budget_cents, provider, model, repo_root, commit_sha) VALUES (?, 't', 'completed', 'compliant', 'default', 1, 'x', 'worker', 100, 'openai', 'm', ?, ?)`;
    const governed = (await afterChange(c, () => sql(work, [ownerId, c.repo, head]))).after;
    expect([governed.readFromDatabase, authorship(governed).governedCommits]).toEqual([true, [head]]);
  });

  it('sees an override written and revoked (migration 047)', async () => {
    const c = await commitWithWorkflow();
    const { before, after } = await afterChange(c, () =>
      sql(
        `INSERT INTO release_overrides (repo_root, commit_sha, named, blockers, reason, reason_digest, created_by, created_by_login, expires_at)
        VALUES (?, ?, '{check:ci}', '[{"code":"required_check_failed","component":"check:ci"}]', 'an outage fix that must ship now', 'd', ?, 'ana', now() + interval '1 hour')`,
        [c.repo, c.sha, ownerId],
      ),
    );
    expect(before.overrides).toEqual([]);
    expect([after.readFromDatabase, after.state.overrides.map((o) => o.created_by_login)]).toEqual([true, ['ana']]);
    const revoked = (
      await afterChange(c, () =>
        sql(`UPDATE release_overrides SET revoked_at = now(), revoked_by = ? WHERE repo_root = ? AND commit_sha = ?`, [
          ownerId,
          c.repo,
          c.sha,
        ]),
      )
    ).after;
    expect([revoked.readFromDatabase, revoked.state.overrides]).toEqual([true, []]);
  });
});
