import { createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { startFlakyProxy } from '../fakes/flaky-proxy.js';
import { startHttpServer } from '../fakes/fake-http.js';
import { checkRun, putGate, sha } from '../support/release-api.js';
import { listen, printed, runAction } from './support/run-action.js';

// Clear failures, none printing the key (it appears only in the runner's ::add-mask:: command).
let t: TestApp;
let server: { url: string; close(): Promise<void> };
let viewer: TestUser;
const REPO = 'acme/widgets';
const commit = sha('action-failures');

beforeAll(async () => {
  t = await createTestApp();
  server = await listen(t.app);
  viewer = await t.user('VIEWER');
  await putGate(t, REPO, { required_checks: ['build'], required_evidence: [], require_reviewed_release: false });
  await checkRun(t, { repo_root: REPO, commit_sha: commit, name: 'build' });
});
afterAll(async () => {
  await server.close();
  await t.close();
});

it('a refused key: exit 1 saying the API key was refused, at once, without printing it', async () => {
  const key = 'sg_this-key-was-never-issued-0123456789abcdef';
  const run = await runAction({ 'api-url': server.url, 'api-key': key, 'commit-sha': commit });
  expect(run.code).toBe(1);
  expect(run.log).toContain('::error::shipgate refused the API key (401): Invalid API key. Check the secret passed as api-key');
  expect(run.log).toContain(`::add-mask::${key}`);
  expect(printed(run, key)).toEqual([]);
  expect(run.log).not.toContain('retrying');
});

it('a role that may not record evidence: 403 with the reason', async () => {
  const run = await runAction({ 'api-url': server.url, 'api-key': viewer.key, 'commit-sha': commit, 'evidence-name': 'sbom' });
  expect(run.code).toBe(1);
  expect(run.log).toContain('::error::shipgate refused to record evidence "sbom" for acme/widgets (403): Requires one of: ADMIN, OPERATOR');
  expect(printed(run, viewer.key)).toEqual([]);
});

it('a request shipgate rejects: 422 with its detail', async () => {
  const operator = await t.user('OPERATOR');
  const run = await runAction({
    'api-url': server.url,
    'api-key': operator.key,
    'commit-sha': commit,
    'evidence-name': 'sbom',
    'evidence-kind': 'not a kind!',
  });
  expect(run.code).toBe(1);
  expect(run.log).toMatch(
    /::error::shipgate rejected the request to record evidence "sbom" for acme\/widgets \(422\): body.kind: Letters, digits/,
  );
});

it('a wrong api-url: 404 with a hint', async () => {
  const elsewhere = await startHttpServer(async (_req, res) => {
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end('<h1>Not Found</h1>');
  });
  try {
    const run = await runAction({ 'api-url': elsewhere.url, 'api-key': viewer.key, 'commit-sha': commit });
    expect(run.code).toBe(1);
    expect(run.log).toContain(
      "shipgate answered 404 to read the release decision of acme/widgets: <h1>Not Found</h1> Is api-url the service's base URL?",
    );
  } finally {
    await elsewhere.close();
  }
});

it('an unreachable service: retried with backoff, then a clear failure within a bounded time', async () => {
  const closed = await startHttpServer(async () => undefined);
  await closed.close();
  const run = await runAction({ 'api-url': closed.url, 'api-key': viewer.key, 'commit-sha': commit });
  expect(run.code).toBe(1);
  expect(run.log.match(/could not connect \(ECONNREFUSED\) at .*; retrying in \d+s/g)).toHaveLength(3);
  // 1 + 2 + 4 s of backoff; the elapsed time is rounded to whole seconds.
  expect(run.log).toMatch(
    new RegExp(
      `::error::Could not read the release decision of acme/widgets after 4 attempt\\(s\\) in [78]s: could not connect \\(ECONNREFUSED\\) at ${closed.url}`,
    ),
  );
  expect(run.ms).toBeLessThan(12_000);
  expect(printed(run, viewer.key)).toEqual([]);
});

it('5xx, then 200: retried, and the decision arrives', async () => {
  const proxy = await startFlakyProxy(server.url, 2, 502);
  try {
    const run = await runAction({ 'api-url': proxy.url, 'api-key': viewer.key, 'commit-sha': commit });
    expect(run.log).toContain('shipgate answered 502: upstream unavailable (1); retrying in 1s (attempt 2 of 4).');
    expect(run.log).toContain('shipgate answered 502: upstream unavailable (2); retrying in 2s (attempt 3 of 4).');
    expect([run.code, run.outputs.decision, proxy.requests]).toEqual([0, 'SHIP', 3]);
    expect(printed(run, viewer.key)).toEqual([]);
  } finally {
    await proxy.close();
  }
});

it('429 honours Retry-After', async () => {
  const proxy = await startFlakyProxy(server.url, 1, 429, { 'Retry-After': '3' });
  try {
    const run = await runAction({ 'api-url': proxy.url, 'api-key': viewer.key, 'commit-sha': commit });
    expect(run.log).toContain('shipgate answered 429: upstream unavailable (1); retrying in 3s (attempt 2 of 4).');
    expect([run.code, run.outputs.decision]).toEqual([0, 'SHIP']);
    expect(run.ms).toBeGreaterThanOrEqual(3_000);
  } finally {
    await proxy.close();
  }
});

it('5xx that does not end: fails after the retries, with the last answer', async () => {
  const proxy = await startFlakyProxy(server.url, 100, 503);
  try {
    const run = await runAction({ 'api-url': proxy.url, 'api-key': viewer.key, 'commit-sha': commit });
    expect(run.code).toBe(1);
    expect(proxy.requests).toBe(4);
    expect(run.log).toMatch(
      /::error::Could not read the release decision of acme\/widgets after 4 attempt\(s\) in [78]s: shipgate answered 503: upstream unavailable \(4\)/,
    );
  } finally {
    await proxy.close();
  }
});
