import { createTestApp, type TestApp } from '../support/test-app.js';
import { startFakeOidcIssuer, type FakeOidcIssuer } from '../fakes/fake-oidc-issuer.js';
import { checkRun, decide, putGate, sha } from '../support/release-api.js';
import { listen, printed, runAction, type ActionRun } from './support/run-action.js';

// Keyless: the Action gets the job's OIDC token through the runner protocol (a fake issuer
// here) and shipgate verifies it against the issuer's published keys.
let issuer: FakeOidcIssuer;
let t: TestApp;
let server: { url: string; close(): Promise<void> };
const REPO = 'acme/widgets';
const commit = sha('action-oidc');

beforeAll(async () => {
  issuer = await startFakeOidcIssuer(REPO);
  t = await createTestApp({ SHIPGATE_OIDC_ISSUERS: issuer.url, SHIPGATE_OIDC_OWNERS: 'acme' });
  server = await listen(t.app);
  await putGate(t, REPO, { required_checks: ['build'], required_evidence: ['tests'], require_reviewed_release: false });
  await checkRun(t, { repo_root: REPO, commit_sha: commit, name: 'build' });
});
afterAll(async () => {
  await server.close();
  await t.close();
  await issuer.close();
});

// The job's token names the commit its run built: shipgate takes a workflow's evidence for that commit only.
beforeAll(() => {
  issuer.runnerClaims = { sha: commit };
});

const keyless = (url: string, inputs: Record<string, string> = {}) =>
  runAction({ 'api-url': url, 'commit-sha': commit, ...inputs }, { env: issuer.runnerEnv });
const tokensPrinted = (run: ActionRun) => issuer.issued.flatMap((token) => printed(run, token));

it('records evidence and gates its own repository without any key; the evidence names the workflow run', async () => {
  const before = issuer.issued.length;
  const run = await keyless(server.url, { 'evidence-name': 'tests', 'evidence-kind': 'test-report' });
  expect([run.code, run.outputs.decision]).toEqual([0, 'SHIP']);
  expect(issuer.issued.length).toBe(before + 1); // one token, reused for both requests
  expect(run.log).toContain(`::add-mask::${issuer.issued.at(-1)}`);
  expect(tokensPrinted(run)).toEqual([]);
  expect((await decide(t, REPO, commit)).provenance.evidence).toEqual([
    expect.objectContaining({
      name: 'tests',
      workflow_run: expect.objectContaining({
        repository: REPO,
        run_id: '9876543210',
        actor: 'octocat',
        workflow_ref: expect.stringContaining('ci.yml'),
      }),
    }),
  ]);
});

it('is refused another repository with 403 naming the claim', async () => {
  const run = await keyless(server.url, { repository: 'acme/gadgets' });
  expect(run.code).toBe(1);
  expect(run.log).toContain(
    '::error::shipgate refused to read the release decision of acme/gadgets (403): The OIDC token\'s "repository" claim is acme/widgets',
  );
  expect(tokensPrinted(run)).toEqual([]);
});

it('a token for another audience is refused with 401 naming the claim', async () => {
  const run = await keyless(server.url, { audience: 'not-shipgate' });
  expect(run.code).toBe(1);
  expect(run.log).toContain(
    '::error::shipgate refused this job\'s GitHub OIDC token (401): OIDC token refused: the "aud" claim is not shipgate.',
  );
  expect(tokensPrinted(run)).toEqual([]);
});

it('without id-token permission (no request variables) says what to add', async () => {
  const run = await runAction({ 'api-url': server.url, 'commit-sha': commit });
  expect(run.code).toBe(1);
  expect(run.log).toContain(
    '::error::No api-key was given, and this job could not get a GitHub OIDC token: give the job `permissions: id-token: write`',
  );
});

it.each([
  ['SHIPGATE_OIDC_OWNERS is unset', {}, 'GitHub Actions OIDC tokens are not accepted by this server (SHIPGATE_OIDC_OWNERS is not set).'],
  [
    'SHIPGATE_OIDC_OWNERS does not list the owner',
    { SHIPGATE_OIDC_OWNERS: 'octo-org' },
    'OIDC token refused: the "repository_owner" claim (acme) is not listed in SHIPGATE_OIDC_OWNERS.',
  ],
])('is refused entirely when %s', async (_case, env, detail) => {
  const other = await createTestApp({ SHIPGATE_OIDC_ISSUERS: issuer.url, ...env });
  const otherServer = await listen(other.app);
  try {
    const run = await keyless(otherServer.url);
    expect(run.code).toBe(1);
    expect(run.log).toContain(`::error::shipgate refused this job's GitHub OIDC token (401): ${detail}`);
    expect(tokensPrinted(run)).toEqual([]);
  } finally {
    await otherServer.close();
    await other.close();
  }
});
