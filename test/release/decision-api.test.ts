import { randomUUID } from 'node:crypto';
import { ROLES } from '../../core/accounts/roles.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { approveReview, checkRun, decide, insertExecution, putGate, reviewedRelease, sha, upload } from '../support/release-api.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const codes = (body: { blockers: { code: string }[] }) => body.blockers.map((b) => b.code);
const daysAgo = (days: number) => new Date(Date.now() - days * 86400_000).toISOString();

/** An execution certificate row for `executionId`, signed by the service, and the same envelope with a forged payload. */
function executionCertificate(executionId: string, digestDigit: string) {
  const statement = {
    _type: 'https://in-toto.io/Statement/v1' as const,
    subject: [{ name: executionId, digest: { sha256: digestDigit.repeat(64) } }],
    predicateType: 'x',
    predicate: {},
  };
  const envelope = t.deps.signer.sign(statement);
  const forged = { ...envelope, payload: Buffer.from(JSON.stringify({ ...statement, predicate: { forged: true } })).toString('base64') };
  const row = {
    id: randomUUID(),
    execution_id: executionId,
    kind: 'execution',
    theorem: 'final_output_safe',
    plan_hash: 'x',
    prover: 'shipgate-rules/1',
    issued_at: new Date(),
    digest: 'x',
  };
  return { row, envelope, forged };
}

describe('GET /releases/decision: input', () => {
  it('answers 401 without a key and 200 for every role', async () => {
    const commit = sha('roles');
    const res = await t.request.get('/api/v1/releases/decision').query({ repo_root: 'acme/roles', commit_sha: commit });
    expect(res.status).toBe(401);
    for (const role of ROLES) {
      const user = await t.user(role);
      expect((await decide(t, 'acme/roles', commit, user)).decision).toBe('NO_SHIP');
    }
  });

  it('accepts a GitHub URL and an upper-case SHA, and answers them normalised', async () => {
    const commit = sha('normalise');
    const body = await decide(t, 'https://github.com/Acme/Normalise', commit.toUpperCase());
    expect(body).toMatchObject({ repo_root: 'acme/normalise', commit_sha: commit });
  });

  it.each([
    [{ repo_root: 'acme', commit_sha: sha(1) }, 'repo_root'],
    [{ repo_root: 'https://gitlab.com/a/b', commit_sha: sha(1) }, 'repo_root'],
    [{ repo_root: 'acme/x', commit_sha: 'abc123' }, 'commit_sha'],
    [{ repo_root: 'acme/x', commit_sha: 'z'.repeat(40) }, 'commit_sha'],
    [{ repo_root: 'acme/x' }, 'commit_sha'],
  ])('answers 422 for %p', async (query, field) => {
    const res = await t.request.get('/api/v1/releases/decision').set(t.admin.auth).query(query);
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc: ['query', field] })]));
  });

  it('answers the documented shape', async () => {
    const body = await decide(t, 'acme/shape', sha('shape'));
    expect(body).toEqual({
      decision: 'NO_SHIP',
      repo_root: 'acme/shape',
      commit_sha: sha('shape'),
      snapshot_id: expect.any(String),
      snapshot_status: 'candidate',
      allowed_promotions: ['rejected'],
      blockers: [expect.objectContaining({ code: 'no_evidence', waitable: true })],
      // No override in force (docs/release-gate.md, "Overrides").
      overridden: [],
      explanation: expect.any(Array),
      provenance: {
        evidence_digest: expect.stringMatching(/^[0-9a-f]{64}$/),
        gate: { version: 0, digest: expect.any(String) },
        check_runs: [],
        evidence: [],
        workflows: [],
      },
      // No pull request names the commit: judged by the rules for people, its authorship unknown.
      authorship: { status: 'no_pull_request', pull_request: null, agent_authored: null, agents: [], commits: [], approvals: [] },
      baseline: null,
      gate: expect.objectContaining({ version: 0, source: 'default', require_reviewed_release: false }),
      evaluated_at: expect.any(String),
      decision_url: expect.stringMatching(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/studio#/releases/acme/shape/${sha('shape')}$`)),
    });
  });
});

describe('GET /releases/decision: every blocker through the real stores', () => {
  const repo = 'acme/blockers';

  beforeAll(async () => {
    await putGate(t, repo, {
      required_checks: ['ci/test'],
      required_evidence: ['sbom'],
      require_reviewed_release: true,
      evidence_max_age_seconds: 86400,
    });
  });

  async function ready(commit: string) {
    await checkRun(t, { repo_root: repo, commit_sha: commit, name: 'ci/test', external_id: `${commit}-ci` });
    await upload(t, { repo_root: repo, commit_sha: commit, name: 'sbom' });
    return reviewedRelease(t.database.db, t.admin.id, repo, commit);
  }

  it('ships when everything the gate asks for is recorded', async () => {
    const commit = sha('ships');
    await ready(commit);
    const body = await decide(t, repo, commit);
    expect(body).toMatchObject({ decision: 'SHIP', blockers: [] });
    expect(body.provenance.workflows).toHaveLength(1);
    expect(body.provenance.workflows[0]).toMatchObject({ standalone: false, status: 'completed', release: { admission: 'admitted' } });
  });

  it('no_evidence, then cleared by the first check run', async () => {
    const commit = sha('no-evidence');
    expect(codes(await decide(t, repo, commit))).toEqual(['no_evidence']);
    await checkRun(t, { repo_root: repo, commit_sha: commit, name: 'lint' });
    expect(codes(await decide(t, repo, commit))).not.toContain('no_evidence');
  });

  it('required_check_missing / pending / failed, and cleared by the completed run', async () => {
    const commit = sha('checks');
    await ready(commit);
    await t.database.db('evidence').where({ commit_sha: commit, source: 'check_run' }).delete();
    await checkRun(t, { repo_root: repo, commit_sha: commit, name: 'lint' });
    expect(codes(await decide(t, repo, commit))).toEqual(['required_check_missing']);
    await checkRun(t, {
      repo_root: repo,
      commit_sha: commit,
      name: 'ci/test',
      status: 'in_progress',
      conclusion: null,
      completed_at: null,
      external_id: 7,
    });
    expect(codes(await decide(t, repo, commit))).toEqual(['required_check_pending']);
    await checkRun(t, { repo_root: repo, commit_sha: commit, name: 'ci/test', conclusion: 'failure', external_id: 7 });
    expect(codes(await decide(t, repo, commit))).toEqual(['required_check_failed']);
    await checkRun(t, { repo_root: repo, commit_sha: commit, name: 'ci/test', conclusion: 'success', external_id: 8 });
    expect(codes(await decide(t, repo, commit))).toEqual([]);
  });

  it('keeps a completed check run completed when an older in_progress delivery arrives late', async () => {
    const commit = sha('late-delivery');
    await ready(commit);
    await checkRun(t, {
      repo_root: repo,
      commit_sha: commit,
      name: 'ci/test',
      external_id: `${commit}-ci`,
      status: 'in_progress',
      conclusion: null,
      completed_at: null,
      started_at: daysAgo(0.01),
    });
    expect((await decide(t, repo, commit)).decision).toBe('SHIP');
    expect(await t.database.db('evidence').where({ commit_sha: commit, source: 'check_run' }).count({ n: '*' })).toEqual([{ n: 1 }]);
  });

  it('required_evidence_missing / failed, cleared by a passing upload (the newest upload wins)', async () => {
    const commit = sha('evidence');
    await ready(commit);
    await t.database.db('evidence').where({ commit_sha: commit, source: 'upload' }).delete();
    expect(codes(await decide(t, repo, commit))).toEqual(['required_evidence_missing']);
    await upload(t, { repo_root: repo, commit_sha: commit, name: 'sbom', status: 'failed', produced_at: daysAgo(0.1) });
    expect(codes(await decide(t, repo, commit))).toEqual(['required_evidence_failed']);
    await upload(t, { repo_root: repo, commit_sha: commit, name: 'sbom', status: 'passed', produced_at: daysAgo(0.05) });
    expect(codes(await decide(t, repo, commit))).toEqual([]);
  });

  it('runtime_evidence_stale for a required item older than evidence_max_age_seconds, cleared by a fresh one', async () => {
    const commit = sha('stale');
    await ready(commit);
    await upload(t, { repo_root: repo, commit_sha: commit, name: 'sbom', produced_at: daysAgo(0.001) });
    await t.database
      .db('evidence')
      .where({ commit_sha: commit, source: 'upload' })
      .update({ produced_at: new Date(daysAgo(2)) });
    const body = await decide(t, repo, commit);
    expect(body.blockers).toEqual([expect.objectContaining({ code: 'runtime_evidence_stale', component: 'evidence:sbom' })]);
    await upload(t, { repo_root: repo, commit_sha: commit, name: 'sbom' });
    expect(codes(await decide(t, repo, commit))).toEqual([]);
  });

  it('no_execution_evidence_bound_to_snapshot, cleared by binding a reviewed release', async () => {
    const commit = sha('unbound');
    await checkRun(t, { repo_root: repo, commit_sha: commit, name: 'ci/test' });
    await upload(t, { repo_root: repo, commit_sha: commit, name: 'sbom' });
    expect(codes(await decide(t, repo, commit))).toEqual(['no_execution_evidence_bound_to_snapshot']);
    await reviewedRelease(t.database.db, t.admin.id, repo, commit);
    expect(codes(await decide(t, repo, commit))).toEqual([]);
  });

  it('workflow_incomplete while a bound execution runs, cleared when it completes', async () => {
    const commit = sha('running');
    const { workflowId } = await ready(commit);
    const extra = await insertExecution(t.database.db, {
      owner_id: t.admin.id,
      repo_root: repo,
      commit_sha: commit,
      workflow_id: workflowId,
      status: 'running',
      verdict: null,
    });
    const body = await decide(t, repo, commit);
    expect(body.blockers).toEqual([expect.objectContaining({ code: 'workflow_incomplete', component: `workflow:${workflowId}` })]);
    await t.database.db('executions').where({ id: extra }).update({ status: 'completed', verdict: 'compliant' });
    expect(codes(await decide(t, repo, commit))).toEqual([]);
  });

  it('release_not_admitted when the review was not approved, cleared once it is', async () => {
    const commit = sha('not-admitted');
    const { reviewer } = await ready(commit);
    await t.database.db('artifacts').where({ execution_id: reviewer }).delete();
    await approveReview(t.database.db, reviewer, false);
    const body = await decide(t, repo, commit);
    expect(codes(body)).toEqual(['release_not_admitted']);
    // Reasons name the upstream by its stage id, as a workflow's blocked_reasons do.
    expect(body.blockers[0].reason).toContain('release stage release was not admitted (not_approved:review)');
    // A review refusing it stands beside a later approving one: every review must approve (a retracted approval ran the release).
    await approveReview(t.database.db, reviewer, true);
    expect(codes(await decide(t, repo, commit))).toEqual(['release_not_admitted']);
    await t.database.db('artifacts').where({ execution_id: reviewer, approved_for_release: false }).delete();
    expect(codes(await decide(t, repo, commit))).toEqual([]);
  });

  it('release_not_admitted when only a standalone execution is bound (no reviewed release)', async () => {
    const commit = sha('standalone');
    await checkRun(t, { repo_root: repo, commit_sha: commit, name: 'ci/test' });
    await upload(t, { repo_root: repo, commit_sha: commit, name: 'sbom' });
    const id = await insertExecution(t.database.db, { owner_id: t.admin.id, repo_root: repo, commit_sha: commit });
    const body = await decide(t, repo, commit);
    expect(body.blockers).toEqual([expect.objectContaining({ code: 'release_not_admitted', component: 'workflows' })]);
    expect(body.provenance.workflows).toEqual([
      expect.objectContaining({ workflow_id: id, standalone: true, release: { admission: 'none', reasons: [] } }),
    ]);
  });

  it('execution_non_compliant, cleared when the execution is compliant', async () => {
    const commit = sha('non-compliant');
    const { release } = await ready(commit);
    await t.database.db('executions').where({ id: release }).update({ verdict: 'non_compliant' });
    expect((await decide(t, repo, commit)).blockers).toEqual([
      expect.objectContaining({ code: 'execution_non_compliant', component: `execution:${release}` }),
    ]);
    await t.database.db('executions').where({ id: release }).update({ verdict: 'compliant' });
    expect(codes(await decide(t, repo, commit))).toEqual([]);
  });

  it('certificate_invalid when an execution certificate does not verify, cleared by a valid one', async () => {
    const commit = sha('certificate');
    const { release } = await ready(commit);
    const { row, envelope, forged } = executionCertificate(release, '1');
    await t.database.db('certificates').insert({ ...row, envelope: forged });
    expect((await decide(t, repo, commit)).blockers).toEqual([
      expect.objectContaining({ code: 'certificate_invalid', component: `execution:${release}` }),
    ]);
    await t.database.db('certificates').insert({ ...row, id: randomUUID(), envelope });
    expect(codes(await decide(t, repo, commit))).toEqual([]);
  });

  it('certificate_invalid when a certificate that verified is altered in place afterwards (the remembered result is not reused)', async () => {
    const commit = sha('certificate-altered');
    const { release } = await ready(commit);
    const { row, envelope, forged } = executionCertificate(release, '2');
    const { id } = row;
    await t.database.db('certificates').insert({ ...row, envelope });
    expect(codes(await decide(t, repo, commit))).toEqual([]);
    expect(codes(await decide(t, repo, commit))).toEqual([]);
    await t.database.db('certificates').where({ id }).update({ envelope: forged });
    expect((await decide(t, repo, commit)).blockers).toEqual([
      expect.objectContaining({ code: 'certificate_invalid', component: `execution:${release}` }),
    ]);
    await t.database.db('certificates').where({ id }).update({ envelope });
    expect(codes(await decide(t, repo, commit))).toEqual([]);
  });
});
