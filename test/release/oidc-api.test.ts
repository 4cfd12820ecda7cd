import { createTestApp, type TestApp } from '../support/test-app.js';
import { startFakeOidcIssuer, type FakeOidcIssuer } from '../fakes/fake-oidc-issuer.js';
import { putGate, sha } from '../support/release-api.js';

// A GitHub Actions job authenticating with its OIDC token instead of an API key (docs/action.md, "Keyless: GitHub Actions OIDC").
let issuer: FakeOidcIssuer;
let stranger: FakeOidcIssuer;
let t: TestApp;
const REPO = 'acme/widgets';
const commit = sha('oidc-1');

beforeAll(async () => {
  [issuer, stranger] = await Promise.all([startFakeOidcIssuer(REPO), startFakeOidcIssuer(REPO)]);
  t = await createTestApp({ SHIPGATE_OIDC_ISSUERS: `${issuer.url}/`, SHIPGATE_OIDC_OWNERS: 'Acme, other-org' });
  await putGate(t, REPO, { required_checks: [], required_evidence: ['sbom'], require_reviewed_release: false });
});
afterAll(async () => {
  await t.close();
  await Promise.all([issuer.close(), stranger.close()]);
});

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const evidence = (repo: string) => ({
  repo_root: repo,
  commit_sha: commit,
  kind: 'sbom',
  name: 'sbom',
  status: 'passed',
  digest: 'sha256:' + 'c'.repeat(64),
  produced_at: new Date().toISOString(),
});
const decisionOf = (repo: string, token: string) =>
  t.request.get('/api/v1/releases/decision').query({ repo_root: repo, commit_sha: commit }).set(bearer(token));

describe('an OIDC token of acme/widgets', () => {
  it('records evidence for its own repository, naming the workflow run, and reads the decision that sees it', async () => {
    const token = await issuer.sign(REPO, { actor: 'mona', run_id: '42', run_attempt: '2', event_name: 'pull_request', sha: commit });
    const recorded = await t.request.post('/api/v1/releases/evidence').set(bearer(token)).send(evidence('https://github.com/ACME/Widgets'));
    expect(recorded.status).toBe(201);
    const run = {
      repository: REPO,
      workflow_ref: `${REPO}/.github/workflows/ci.yml@refs/heads/main`,
      run_id: '42',
      run_attempt: '2',
      actor: 'mona',
      event_name: 'pull_request',
      job_workflow_ref: `${REPO}/.github/workflows/ci.yml@refs/heads/main`,
      sha: commit,
      ref: 'refs/heads/main',
      repository_id: '123456',
    };
    expect(recorded.body).toMatchObject({ repo_root: REPO, recorded_by: null, workflow_run: run });

    const decision = await decisionOf(REPO, token);
    expect(decision.status).toBe(200);
    expect(decision.body.decision).toBe('SHIP');
    expect(decision.body.provenance.evidence).toEqual([expect.objectContaining({ name: 'sbom', workflow_run: run })]);
  });

  it('fetches the discovery document and key set once, not per request', async () => {
    for (let i = 0; i < 3; i++) expect((await decisionOf(REPO, await issuer.sign(REPO))).status).toBe(200);
    expect(issuer.hits).toEqual({ discovery: 1, jwks: 1 });
  });

  it('is forbidden from another repository, with the claim that did not match', async () => {
    const token = await issuer.sign(REPO);
    const read = await decisionOf('acme/gadgets', token);
    expect(read.status).toBe(403);
    expect(read.body.detail).toBe(
      'The OIDC token\'s "repository" claim is acme/widgets: it may only read the release decision of that repository, not acme/gadgets.',
    );
    const write = await t.request.post('/api/v1/releases/evidence').set(bearer(token)).send(evidence('acme/gadgets'));
    expect(write.status).toBe(403);
    expect(write.body.detail).toMatch(/may only record evidence for that repository, not acme\/gadgets/);
  });

  it('is forbidden from every other route, even reads any key may make', async () => {
    const token = await issuer.sign(REPO);
    for (const [method, path] of [
      ['get', '/api/v1/auth/me'],
      ['get', '/api/v1/releases/health'],
      ['get', '/api/v1/releases/promotions'],
      ['post', '/api/v1/releases/promote'],
      ['put', `/api/v1/releases/gates/${REPO}`],
      ['post', '/api/v1/auth/rotate'],
    ] as const) {
      const res = await t.request[method](path).set(bearer(token)).send({});
      expect(`${method} ${path}: ${res.status} ${res.body.detail}`).toBe(
        `${method} ${path}: 403 A GitHub Actions OIDC token may only read the release decision of, record evidence for, and open agent sessions for, its own repository.`,
      );
    }
  });
});

describe('a token that does not verify is 401, saying which check failed', () => {
  it.each([
    ['a wrong audience', () => issuer.sign(REPO, { aud: 'someone-else' }), 'OIDC token refused: the "aud" claim is not shipgate.'],
    ['an expired token', () => issuer.sign(REPO, {}, { expiresIn: -120 }), 'OIDC token refused: it has expired ("exp").'],
    [
      'a bad signature',
      () => issuer.sign(REPO, {}, { foreignKey: true }),
      "OIDC token refused: its signature does not verify with the issuer's keys.",
    ],
    [
      'an issuer not configured',
      () => stranger.sign(REPO),
      'OIDC token refused: its issuer ("iss") is not one of SHIPGATE_OIDC_ISSUERS ({issuer}).',
    ],
    [
      'an owner not listed',
      () => issuer.sign('octo-org/widgets'),
      'OIDC token refused: the "repository_owner" claim (octo-org) is not listed in SHIPGATE_OIDC_OWNERS.',
    ],
    [
      'a tampered payload',
      async () => {
        const [header, , signature] = (await issuer.sign(REPO)).split('.');
        const payload = Buffer.from(JSON.stringify({ iss: issuer.url, aud: 'shipgate', repository: 'acme/gadgets' })).toString('base64url');
        return `${header}.${payload}.${signature}`;
      },
      "OIDC token refused: its signature does not verify with the issuer's keys.",
    ],
  ])('%s', async (_case, token, detail) => {
    const res = await decisionOf(REPO, await token());
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.body).toEqual({ detail: detail.replace('{issuer}', issuer.url) });
  });
});

describe('with SHIPGATE_OIDC_OWNERS unset', () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await createTestApp({ SHIPGATE_OIDC_ISSUERS: issuer.url });
  });
  afterAll(async () => {
    await off.close();
  });

  it('refuses every OIDC token without fetching any key', async () => {
    const before = { ...issuer.hits };
    const res = await off.request
      .get('/api/v1/releases/decision')
      .query({ repo_root: REPO, commit_sha: commit })
      .set(bearer(await issuer.sign(REPO)));
    expect([res.status, res.body.detail]).toEqual([
      401,
      'GitHub Actions OIDC tokens are not accepted by this server (SHIPGATE_OIDC_OWNERS is not set).',
    ]);
    expect(issuer.hits).toEqual(before);
  });
});

it('an issuer whose keys cannot be fetched answers 503, not 401 or 500', async () => {
  const gone = await startFakeOidcIssuer(REPO);
  const app = await createTestApp({ SHIPGATE_OIDC_ISSUERS: gone.url, SHIPGATE_OIDC_OWNERS: 'acme' });
  try {
    const token = await gone.sign(REPO);
    await gone.close();
    const res = await app.request.get('/api/v1/releases/decision').query({ repo_root: REPO, commit_sha: commit }).set(bearer(token));
    expect([res.status, res.body.detail]).toEqual([503, "The OIDC issuer's signing keys could not be fetched; try again shortly."]);
  } finally {
    await app.close();
  }
});

it('never logs or returns a token', async () => {
  const tokens = [await issuer.sign(REPO), await issuer.sign(REPO, { aud: 'x' }), await issuer.sign('acme/gadgets')];
  const texts: string[] = [];
  for (const token of tokens) {
    texts.push(JSON.stringify((await decisionOf(REPO, token)).body));
    texts.push(JSON.stringify((await t.request.post('/api/v1/releases/evidence').set(bearer(token)).send(evidence(REPO))).body));
  }
  const everything = texts.join('\n') + t.logs.text();
  for (const token of tokens) {
    expect(everything).not.toContain(token);
    expect(everything).not.toContain(token.split('.')[2]);
  }
});
