import { randomUUID } from 'node:crypto';
import { afterChange, commitWithWorkflow, envelope, executionOf, readerOf, sql, useCacheDatabase } from './support/cached-commit-state.js';

// A server keeps each commit's state with the change counts it was read at (migration 014) and
// serves it while they are unchanged (ARCHITECTURE.md, "Process-local state", the decision's
// cache). Each test changes one thing a decision reads, straight in the database as another
// replica would, and expects the next read to see it.
const cache = useCacheDatabase();

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
        [cache.owner(), c.repo, c.sha],
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
    await cache
      .database()
      .db.transaction(async (trx) => {
        await trx.raw(`UPDATE executions SET status = 'failed' WHERE id = ?`, [c.release]);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect((await read()).readFromDatabase).toBe(false);
    await sql(`UPDATE executions SET status = 'failed' WHERE id = ?`, [c.release]);
    expect(executionOf((await read()).state, c.release).status).toBe('failed');
  });
});
