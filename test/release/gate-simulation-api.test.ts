import { createTestApp, type TestApp } from '../support/test-app.js';
import { checkRun, decide, putGate, sha } from '../support/release-api.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const simulate = (repo: string, body: unknown, auth = t.admin.auth) =>
  t.request
    .post(`/api/v1/releases/gates/${repo}/simulate`)
    .set(auth)
    .send(body as object);

/** Every row that says what a repository's gate is and what was decided: none may move while simulating. */
async function written(repo: string) {
  const db = t.database.db;
  return {
    gates: await db('gate_versions').where({ repo_root: repo }).orderBy('version'),
    snapshots: await db('snapshots').where({ repo_root: repo }).orderBy('id'),
    commitCounts: await db('release_commit_versions').where({ repo_root: repo }).orderBy('commit_sha'),
    repoCounts: await db('release_repo_versions').where({ repo_root: repo }),
  };
}

describe('simulating a draft gate over the stored commits (acceptance 1)', () => {
  const repo = 'acme/simulated';
  const commits = Array.from({ length: 50 }, (_, i) => sha(`simulated-${i}`));
  // Every fifth commit never ran lint: 10 of 50.
  const lacksLint = (i: number) => i % 5 === 0;

  beforeAll(async () => {
    await putGate(t, repo, { required_checks: ['ci'] });
    for (const [i, commit] of commits.entries()) {
      await checkRun(t, { repo_root: repo, commit_sha: commit, name: 'ci' });
      if (!lacksLint(i)) await checkRun(t, { repo_root: repo, commit_sha: commit, name: 'lint' });
      expect((await decide(t, repo, commit)).decision).toBe('SHIP');
    }
  });

  it('adding a required check flips exactly the commits lacking it to NO_SHIP, newest first, and writes nothing', async () => {
    const before = await written(repo);
    const versions = (await t.request.get(`/api/v1/releases/gates/${repo}/versions`).set(t.admin.auth)).body;
    const decisions = await Promise.all(commits.map((c) => decide(t, repo, c)));

    const res = await simulate(repo, { gate: { required_checks: ['ci', 'lint'] } });
    expect(res.status).toBe(200);
    const lacking = commits.filter((_, i) => lacksLint(i)).reverse();
    expect(res.body.changes.map((c: { commit_sha: string }) => c.commit_sha)).toEqual(lacking);
    expect(res.body.totals).toEqual({ flips_to_ship: 0, flips_to_no_ship: 10, changed_blockers: 0, unchanged: 40 });
    expect(res.body).toMatchObject({ repo_root: repo, judged: 50, gate_in_force: { version: 1, digest: versions.versions[0].digest } });
    for (const change of res.body.changes) {
      expect(change).toEqual({
        commit_sha: change.commit_sha,
        before: { decision: 'SHIP', blockers: [], overridden: [] },
        after: {
          decision: 'NO_SHIP',
          blockers: [expect.objectContaining({ code: 'required_check_missing', component: 'check:lint', waitable: true })],
          overridden: [],
        },
        unknown_facts: [],
      });
    }

    // Nothing written: no gate version, no snapshot, no change count; the API answers as before.
    expect(await written(repo)).toEqual(before);
    expect((await t.request.get(`/api/v1/releases/gates/${repo}/versions`).set(t.admin.auth)).body).toEqual(versions);
    expect((await t.request.get(`/api/v1/releases/gates/${repo}`).set(t.admin.auth)).body.gate.required_checks).toEqual(['ci']);
    const after = await Promise.all(commits.map((c) => decide(t, repo, c)));
    expect(after.map((d) => [d.decision, d.snapshot_id])).toEqual(decisions.map((d) => [d.decision, d.snapshot_id]));
  });

  it('judges only the last `limit` commits; a draft equal to the gate in force changes nothing; any role that reads the repository may ask', async () => {
    const res = await simulate(repo, { gate: { required_checks: ['ci', 'lint'] }, limit: 10 }, (await t.user('VIEWER')).auth);
    expect(res.status).toBe(200);
    expect(res.body.judged).toBe(10);
    // The 10 newest are commits 40..49, of which 40 and 45 lack lint.
    expect(res.body.changes.map((c: { commit_sha: string }) => c.commit_sha)).toEqual([commits[45], commits[40]]);
    expect(res.body.totals).toEqual({ flips_to_ship: 0, flips_to_no_ship: 2, changed_blockers: 0, unchanged: 8 });

    const same = await simulate(repo, { gate: { required_checks: ['ci'] } });
    expect(same.body.totals).toEqual({ flips_to_ship: 0, flips_to_no_ship: 0, changed_blockers: 0, unchanged: 50 });
    expect(same.body.changes).toEqual([]);
  });

  it('counts flips to SHIP and changed blockers apart', async () => {
    const other = 'acme/simulated-flips';
    await putGate(t, other, { required_checks: ['ci', 'lint'] });
    const [shipsLater, blockedOtherwise] = [sha('flips-1'), sha('flips-2')];
    await checkRun(t, { repo_root: other, commit_sha: shipsLater, name: 'ci' });
    await checkRun(t, { repo_root: other, commit_sha: blockedOtherwise, name: 'ci', conclusion: 'failure' });
    const res = await simulate(other, { gate: { required_checks: ['ci'] } });
    expect(res.body.totals).toEqual({ flips_to_ship: 1, flips_to_no_ship: 0, changed_blockers: 1, unchanged: 0 });
    const [second, first] = res.body.changes;
    expect(first).toMatchObject({ commit_sha: shipsLater, before: { decision: 'NO_SHIP' }, after: { decision: 'SHIP', blockers: [] } });
    expect(second.commit_sha).toBe(blockedOtherwise);
    expect(second.before.blockers.map((b: { component: string }) => b.component)).toEqual(['check:ci', 'check:lint']);
    expect(second.after.blockers.map((b: { component: string }) => b.component)).toEqual(['check:ci']);
  });

  it('judges both gates as the decision does, overrides in force included', async () => {
    const other = 'acme/simulated-override';
    await putGate(t, other, { required_checks: ['ci'] });
    const commit = sha('override-1');
    await checkRun(t, { repo_root: other, commit_sha: commit, name: 'ci', conclusion: 'failure' });
    await t.database.db('release_overrides').insert({
      repo_root: other,
      commit_sha: commit,
      named: ['check:ci'],
      blockers: JSON.stringify([{ code: 'required_check_failed', component: 'check:ci' }]),
      reason: 'The ci runner is down; the fix is verified by hand.',
      reason_digest: 'd'.repeat(64),
      created_by: t.admin.id,
      created_by_login: 'ana',
      expires_at: new Date(Date.now() + 3_600_000),
    });
    expect((await decide(t, other, commit)).decision).toBe('SHIP');
    const res = await simulate(other, { gate: { required_checks: ['ci', 'lint'] } });
    expect(res.body.totals).toEqual({ flips_to_ship: 0, flips_to_no_ship: 1, changed_blockers: 0, unchanged: 0 });
    const [change] = res.body.changes;
    expect(change.before).toMatchObject({
      decision: 'SHIP',
      blockers: [],
      overridden: [{ by: 'ana', blockers: [{ component: 'check:ci' }] }],
    });
    expect(change.after.blockers.map((b: { component: string }) => b.component)).toEqual(['check:lint']);
    expect(change.after.overridden).toMatchObject([{ by: 'ana', blockers: [{ component: 'check:ci' }] }]);
  });

  it('says which facts it does not hold instead of guessing: a pull request whose files were never read', async () => {
    const other = 'acme/simulated-unread';
    const head = sha('unread-head');
    await checkRun(t, { repo_root: other, commit_sha: head, name: 'ci' });
    await t.database.db('pull_request_authorship').insert({
      repo_root: other,
      commit_sha: head,
      number: 7,
      status: 'unreadable',
      reason: 'GitHub answered 403.',
      facts: null,
      commit_shas: [head],
    });
    const res = await simulate(other, {
      gate: { rules: [{ name: 'infra needs two', if: { paths: ['infra/**'] }, require: { approvals: 2 } }] },
    });
    expect(res.status).toBe(200);
    const [change] = res.body.changes;
    expect(change.pull_request).toBe(7);
    expect(change.after.blockers.map((b: { code: string }) => b.code)).toContain('changed_files_unknown');
    expect(change.unknown_facts).toContain('Pull request #7 could not be read: GitHub answered 403.');
  });
});

describe('an invalid draft (acceptance 2)', () => {
  it('is 422 exactly as PUT of the gate answers it', async () => {
    const repo = 'acme/simulated-invalid';
    const drafts = [
      { required_checks: [''], rules: [{ name: 'x' }, { name: '' }], surprise: true },
      {
        rules: [
          { name: 'a', if: { paths: ['['] }, require: { approvals: 1 } },
          { name: 'a', require: { approvals: 1 } },
        ],
      },
      { evidence_max_age_seconds: 1, environments: 'production' },
      // A range out of order was a 500 (the regular expression's SyntaxError), here and in PUT.
      { rules: [{ name: 'r', if: { paths: ['src/[z-a]'], base_branches: ['[9-0]'] }, require: { approvals: 1 } }] },
    ];
    for (const draft of drafts) {
      const put = await t.request.put(`/api/v1/releases/gates/${repo}`).set(t.admin.auth).send(draft);
      const sim = await simulate(repo, { gate: draft });
      expect(put.status).toBe(422);
      expect(sim.status).toBe(422);
      expect(sim.body).toEqual(put.body);
    }
    // The draft itself missing (or no object) is named as the field it is.
    for (const body of [{}, { gate: [] }]) {
      const missing = await simulate(repo, body);
      expect([missing.status, missing.body.detail]).toEqual([
        422,
        [expect.objectContaining({ loc: ['body', 'gate'], type: 'invalid_type' })],
      ]);
    }
    const limit = await simulate(repo, { gate: {}, limit: 1001 });
    expect(limit.status).toBe(422);
    expect(limit.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'limit'] })]);
    expect(await t.database.db('gate_versions').where({ repo_root: repo })).toEqual([]);
  });
});
