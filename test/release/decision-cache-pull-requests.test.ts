import type { CommitState } from '../../core/release/read-commit-state.js';
import { afterChange, commitWithWorkflow, sql, useCacheDatabase } from './support/cached-commit-state.js';

// A server keeps each commit's state with the change counts it was read at (migration 014) and
// serves it while they are unchanged (ARCHITECTURE.md, "Process-local state", the decision's
// cache). Each test changes one thing a decision reads, straight in the database as another
// replica would, and expects the next read to see it.
const cache = useCacheDatabase();

describe("the decision's cache of a pull request head's state", () => {
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
        [cache.owner(), c.repo, earlier],
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
    const governed = (await afterChange(c, () => sql(work, [cache.owner(), c.repo, head]))).after;
    expect([governed.readFromDatabase, authorship(governed).governedCommits]).toEqual([true, [head]]);
  });

  it('sees an override written and revoked (migration 047)', async () => {
    const c = await commitWithWorkflow();
    const { before, after } = await afterChange(c, () =>
      sql(
        `INSERT INTO release_overrides (repo_root, commit_sha, named, blockers, reason, reason_digest, created_by, created_by_login, expires_at)
        VALUES (?, ?, '{check:ci}', '[{"code":"required_check_failed","component":"check:ci"}]', 'an outage fix that must ship now', 'd', ?, 'ana', now() + interval '1 hour')`,
        [c.repo, c.sha, cache.owner()],
      ),
    );
    expect(before.overrides).toEqual([]);
    expect([after.readFromDatabase, after.state.overrides.map((o) => o.created_by_login)]).toEqual([true, ['ana']]);
    const revoked = (
      await afterChange(c, () =>
        sql(`UPDATE release_overrides SET revoked_at = now(), revoked_by = ? WHERE repo_root = ? AND commit_sha = ?`, [
          cache.owner(),
          c.repo,
          c.sha,
        ]),
      )
    ).after;
    expect([revoked.readFromDatabase, revoked.state.overrides]).toEqual([true, []]);
  });
});
