import { createTestApp, type TestApp } from '../support/test-app.js';
import { startFakeOidcIssuer, type FakeOidcIssuer, type WorkflowClaims } from '../fakes/fake-oidc-issuer.js';
import { decide, putGate, sha, upload } from '../support/release-api.js';
import { deliver, pullRequestPayload, settle } from '../support/github-deliveries.js';

// Workflow evidence bound to what the workflow built (docs/release-gate.md, "Evidence from workflows").
let issuer: FakeOidcIssuer;
let t: TestApp;
const REPO = 'acme/widgets';
const built = sha('built-by-the-run');
const other = sha('release-commit');

beforeAll(async () => {
  issuer = await startFakeOidcIssuer(REPO);
  t = await createTestApp({ SHIPGATE_OIDC_ISSUERS: issuer.url, SHIPGATE_OIDC_OWNERS: 'acme' });
});
afterAll(async () => {
  await t.close();
  await issuer.close();
});

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const record = async (claims: Partial<WorkflowClaims>, body: Record<string, unknown>, repo = REPO) =>
  t.request
    .post('/api/v1/releases/evidence')
    .set(bearer(await issuer.sign(repo, claims)))
    .send({ repo_root: repo, kind: 'test-report', name: 'tests', status: 'passed', produced_at: new Date().toISOString(), ...body });

describe('a workflow records evidence only for the commit its run built', () => {
  it("refuses a commit other than the token's sha (403 naming the rule), and takes the built one", async () => {
    const refused = await record({ sha: built }, { commit_sha: other });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe(
      `A GitHub Actions OIDC token may record evidence only for the commit its run built: the token's "sha" (${built}), not ${other}.`,
    );
    expect(await t.database.db('evidence').where({ commit_sha: other }).count({ n: '*' })).toEqual([{ n: 0 }]);
    expect((await record({ sha: built }, { commit_sha: built })).status).toBe(201);
  });

  it("on a pull request run, also the pull request's head its merge ref merged, once the App has recorded the pull request", async () => {
    const [merge, head, stale] = [sha('pr-merge'), sha('pr-head'), sha('pr-stale')];
    const prRun = { event_name: 'pull_request', ref: 'refs/pull/7/merge', sha: merge, head_ref: 'feature' };
    const unknown = await record(prRun, { commit_sha: head });
    expect(unknown.status).toBe(403);
    expect(unknown.body.detail).toMatch(
      /the App has not recorded pull request #7 of acme\/widgets, so shipgate cannot tell that [0-9a-f]{40} is its head/,
    );

    await t.database.db('github_pull_requests').insert({
      repo_root: REPO,
      number: 7,
      head_sha: head,
      head_ref: 'feature',
      base_ref: 'main',
      state: 'open',
      updated_at: new Date(),
    });
    expect((await record(prRun, { commit_sha: head })).status).toBe(201);
    expect((await record(prRun, { commit_sha: merge })).status).toBe(201);
    const notTheHead = await record(prRun, { commit_sha: stale });
    expect(notTheHead.status).toBe(403);
    expect(notTheHead.body.detail).toContain(`which the App knows as ${head}; not ${stale}.`);
    // Another pull request's head is not what this run merged.
    expect((await record({ ...prRun, ref: 'refs/pull/8/merge' }, { commit_sha: head })).status).toBe(403);
    // A push run does not get a pull request's head by naming one.
    expect((await record({ ...prRun, event_name: 'push' }, { commit_sha: head })).status).toBe(403);
  });

  it("moves only its own branch's head: a token for refs/heads/feature cannot move main", async () => {
    const claims = { ref: 'refs/heads/feature', sha: built };
    const moved = await record(claims, { commit_sha: built, ref: 'main' });
    expect(moved.status).toBe(403);
    expect(moved.body.detail).toBe(
      'A GitHub Actions OIDC token moves only its own branch\'s head: its "ref" claim is refs/heads/feature, so ref may be feature, not main.',
    );
    expect(await t.database.db('refs').where({ repo_root: REPO, ref: 'main' }).first()).toBeUndefined();
    expect((await record(claims, { commit_sha: built, ref: 'refs/heads/feature' })).status).toBe(201);
    expect(await t.database.db('refs').where({ repo_root: REPO, ref: 'feature' }).first()).toMatchObject({ commit_sha: built });
    const fromPullRequest = await record({ ref: 'refs/pull/7/merge', sha: built }, { commit_sha: built, ref: 'feature' });
    expect([fromPullRequest.status, fromPullRequest.body.detail]).toEqual([
      403,
      'A GitHub Actions OIDC token moves only its own branch\'s head; its "ref" claim (refs/pull/7/merge) is no branch, so send no ref.',
    ]);
  });
});

describe("a gate's evidence_sources", () => {
  const repo = 'acme/sourced';
  const release = `${repo}/.github/workflows/release.yml@refs/heads/main`;
  const commit = sha('sourced');

  beforeAll(async () => {
    await putGate(t, repo, { required_evidence: ['tests'], evidence_sources: [`${repo}/.github/workflows/release.yml@refs/heads/*`] });
  });

  it('refuses a token from an unlisted workflow (403 naming the rule) and accepts the listed one', async () => {
    const ci = `${repo}/.github/workflows/ci.yml@refs/heads/main`;
    const refused = await record({ sha: commit, job_workflow_ref: ci }, { commit_sha: commit }, repo);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe(
      `The gate of ${repo} names its evidence_sources and only ${repo}/.github/workflows/release.yml@refs/heads/* may record evidence for it; ` +
        `this token's workflow (job_workflow_ref ${ci}) is not one of them.`,
    );
    expect((await decide(t, repo, commit)).decision).toBe('NO_SHIP');

    const accepted = await record(
      { sha: commit, job_workflow_ref: release, run_id: '77', event_name: 'push' },
      { commit_sha: commit },
      repo,
    );
    expect(accepted.status).toBe(201);
    expect(accepted.body.workflow_run).toMatchObject({ job_workflow_ref: release, run_id: '77', event_name: 'push', sha: commit });
    expect((await decide(t, repo, commit)).decision).toBe('SHIP');
  });

  it('leaves API keys alone', async () => {
    const recorded = await upload(t, { repo_root: repo, commit_sha: sha('by-key'), name: 'tests' });
    expect(recorded.recorded_by).toBe(t.admin.id);
  });

  it('[] admits no workflow at all', async () => {
    await putGate(t, 'acme/keys-only', { evidence_sources: [] });
    const res = await record({ sha: commit, job_workflow_ref: release }, { commit_sha: commit }, 'acme/keys-only');
    expect([res.status, res.body.detail]).toEqual([
      403,
      `The gate of acme/keys-only names its evidence_sources and it lists none: only API keys may record evidence for it; this token's workflow (job_workflow_ref ${release}) is not one of them.`,
    ]);
  });

  it.each([
    ['acme/api/.github/workflows/*.yml@refs/heads/main', 'The part before `@` must be a workflow file'],
    ['acme/api/.github/workflows/release.yml', 'Expected owner/repo/.github/workflows/<file>.yml@<ref>'],
    ['acme/api/release.yml@refs/heads/main', 'The part before `@` must be a workflow file'],
    ['acme/api/.github/workflows/release.yml@', 'The part after `@` must be a ref'],
  ])('refuses the pattern %s with a 422 pointing at it', async (pattern, message) => {
    const res = await t.request
      .put('/api/v1/releases/gates/acme/patterns')
      .set(t.admin.auth)
      .send({ evidence_sources: ['acme/api/.github/workflows/ok.yml@*', pattern] });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'evidence_sources', 1], msg: expect.stringContaining(message) }),
    ]);
  });
});

describe('who recorded each piece', () => {
  it('the decision and the stored snapshot name the recording workflow, and the key upload its user', async () => {
    const repo = 'acme/who';
    const commit = sha('who');
    await putGate(t, repo, { required_evidence: ['tests', 'sbom'] });
    const job = `acme/shared/.github/workflows/test.yml@refs/tags/v1`;
    const claims = { sha: commit, job_workflow_ref: job, run_id: '4242', event_name: 'push', repository_id: '123456' };
    expect((await record(claims, { commit_sha: commit }, repo)).status).toBe(201);
    await upload(t, { repo_root: repo, commit_sha: commit, name: 'sbom' });

    const decision = await decide(t, repo, commit);
    const byWorkflow = expect.objectContaining({
      name: 'tests',
      workflow_run: expect.objectContaining({
        job_workflow_ref: job,
        run_id: '4242',
        event_name: 'push',
        sha: commit,
        repository_id: '123456',
      }),
    });
    const byKey = expect.objectContaining({ name: 'sbom', recorded_by_user: t.admin.id });
    expect(decision.provenance.evidence).toEqual([byKey, byWorkflow]);
    const snapshot = await t.database.db('snapshots').where({ id: decision.snapshot_id }).first();
    expect(snapshot.provenance.evidence).toEqual([byKey, byWorkflow]);
  });
});

describe('repository ids', () => {
  it('a token whose ids are not those the App knows for the repository is refused; names alone decide where none are known', async () => {
    const repo = 'acme/renamed';
    const commit = sha('ids');
    expect((await record({ sha: commit, repository_id: '999' }, { commit_sha: commit }, repo)).status).toBe(201);
    await t.database.db('github_repositories').insert({ repo_root: repo, repository_id: 555, owner_id: 654321 });
    const impostor = await record({ sha: commit, repository_id: '999' }, { commit_sha: commit }, repo);
    expect(impostor.status).toBe(403);
    expect(impostor.body.detail).toContain('the GitHub App knows acme/renamed as repository 555 of owner 654321');
    const otherOwner = await record({ sha: commit, repository_id: '555', repository_owner_id: '1' }, { commit_sha: commit }, repo);
    expect(otherOwner.status).toBe(403);
    expect((await record({ sha: commit, repository_id: '555' }, { commit_sha: commit }, repo)).status).toBe(201);
  });

  it('SHIPGATE_OIDC_OWNERS can pin the owner account by id', async () => {
    const pinned = await createTestApp({ SHIPGATE_OIDC_ISSUERS: issuer.url, SHIPGATE_OIDC_OWNERS: 'acme@654321' });
    try {
      const read = async (claims: Partial<WorkflowClaims>) =>
        pinned.request
          .get('/api/v1/releases/decision')
          .query({ repo_root: REPO, commit_sha: built })
          .set(bearer(await issuer.sign(REPO, claims)));
      expect((await read({})).status).toBe(200);
      const reRegistered = await read({ repository_owner_id: '777' });
      expect([reRegistered.status, reRegistered.body.detail]).toEqual([
        401,
        'OIDC token refused: SHIPGATE_OIDC_OWNERS pins acme to the account id 654321, and the "repository_owner_id" claim is 777 (a re-registered name is another account).',
      ]);
    } finally {
      await pinned.close();
    }
  });
});

describe('as the App knows it, from its deliveries', () => {
  const SECRET = 'webhook-secret-for-binding';
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(
      { WEBHOOK_SECRET: SECRET, SHIPGATE_OIDC_ISSUERS: issuer.url, SHIPGATE_OIDC_OWNERS: 'acme' },
      { worker: true },
    );
  });
  afterAll(() => app.close());

  it("a pull request delivery records the pull request's head and the repository's ids, which a run's token must then match", async () => {
    const repo = 'acme/delivered';
    const [head, merge] = [sha('delivered-head'), sha('delivered-merge')];
    const payload = pullRequestPayload('opened', { number: 12, sha: head }, repo);
    payload.repository = { ...payload.repository, id: 4711, owner: { ...payload.repository.owner, id: 654321 } };
    expect((await deliver(app, 'pull_request', payload, { secret: SECRET })).status).toBe(202);
    await settle(app);

    const send = async (claims: Partial<WorkflowClaims>) =>
      app.request
        .post('/api/v1/releases/evidence')
        .set(bearer(await issuer.sign(repo, { event_name: 'pull_request', ref: 'refs/pull/12/merge', sha: merge, ...claims })))
        .send({
          repo_root: repo,
          commit_sha: head,
          kind: 'test-report',
          name: 'tests',
          status: 'passed',
          produced_at: new Date().toISOString(),
        });
    expect((await send({ repository_id: '4711' })).status).toBe(201);
    const recreated = await send({ repository_id: '9999' });
    expect(recreated.status).toBe(403);
    expect(recreated.body.detail).toContain('the GitHub App knows acme/delivered as repository 4711 of owner 654321');
  });
});
