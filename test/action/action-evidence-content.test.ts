import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { startFakeOidcIssuer, type FakeOidcIssuer } from '../fakes/fake-oidc-issuer.js';
import { checkRun, decide, putGate, sha } from '../support/release-api.js';
import { listen, runAction } from './support/run-action.js';

// The bundled Action uploads the document itself (docs/action.md); shipgate reads it, and the
// job summary says what it read. Run as a runner runs it, keyless (a fake OIDC issuer) and with a key.
let issuer: FakeOidcIssuer;
let t: TestApp;
let server: { url: string; close(): Promise<void> };
let operator: TestUser;
const REPO = 'acme/reports';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'action-documents-'));

beforeAll(async () => {
  issuer = await startFakeOidcIssuer(REPO);
  t = await createTestApp({ SHIPGATE_OIDC_ISSUERS: issuer.url, SHIPGATE_OIDC_OWNERS: 'acme' });
  server = await listen(t.app);
  operator = await t.user('OPERATOR');
  await putGate(t, REPO, {
    required_checks: ['build'],
    required_evidence: [{ name: 'tests', format: 'junit', rules: { max_failed: 0 } }],
    require_reviewed_release: false,
  });
});
afterAll(async () => {
  await server.close();
  await t.close();
  await issuer.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A jest-junit report of `total` tests, the ones named in `failing` failed. */
function junitFile(name: string, total: number, failing: string[]): string {
  const cases = Array.from({ length: total }, (_, i) => {
    const title = failing[i] ?? `cart adds item ${i}`;
    const failure =
      i < failing.length ? `<failure message="expected 1, got 2">Error: expected 1, got 2\n    at cart.test.ts:${i}:1</failure>` : '';
    return `    <testcase classname="cart" name="${title}" time="0.01">${failure}</testcase>`;
  });
  const file = path.join(dir, name);
  fs.writeFileSync(
    file,
    `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="jest tests" tests="${total}" failures="${failing.length}" errors="0" time="1.2">\n` +
      `  <testsuite name="cart" errors="0" failures="${failing.length}" skipped="0" timestamp="2026-01-01T00:00:00" time="1.2" tests="${total}">\n` +
      `${cases.join('\n')}\n  </testsuite>\n</testsuites>\n`,
  );
  return file;
}

const fileDigest = (file: string) => `sha256:${createHash('sha256').update(fs.readFileSync(file)).digest('hex')}`;

const tests = (commit: string, file: string, extra: Record<string, string> = {}) => ({
  'api-url': server.url,
  'commit-sha': commit,
  repository: REPO,
  'evidence-name': 'tests',
  'evidence-kind': 'test-report',
  'evidence-file': file,
  ...extra,
});

it('keyless: uploads a JUnit report with 3 failures as passed; the gate says NO_SHIP and the job summary shows the counts and the names', async () => {
  const commit = sha('action-junit-failures');
  await checkRun(t, { repo_root: REPO, commit_sha: commit, name: 'build' });
  const failing = ['cart rejects a negative quantity', 'cart totals <discounts>', 'checkout retries once'];
  const file = junitFile('junit.xml', 412, failing);
  issuer.runnerClaims = { sha: commit }; // the job's token names the commit its run built
  const run = await runAction(tests(commit, file, { 'evidence-format': 'junit' }), { env: issuer.runnerEnv });

  expect(run.log).toContain('shipgate read it as junit: 412 tests, 3 failed');
  expect([run.code, run.outputs.decision]).toEqual([1, 'NO_SHIP']);
  expect(JSON.parse(run.outputs.blockers)).toEqual([
    expect.objectContaining({ code: 'evidence_content_failed', component: expect.stringMatching(/^evidence:tests/) }),
  ]);
  expect(run.summary).toContain('shipgate read it as junit: <b>412 tests, 3 failed</b>');
  // Each failing name, escaped (the report's text is not HTML).
  for (const name of ['cart rejects a negative quantity', 'cart totals &#60;discounts&#62;', 'checkout retries once'])
    expect(run.summary).toMatch(new RegExp(`<li>[^<]*${name}</li>`));
  expect(run.summary).toContain('<td>evidence_content_failed</td>');
  const [evidence] = (await decide(t, REPO, commit)).provenance.evidence;
  expect(evidence).toMatchObject({ name: 'tests', status: 'passed', format: 'junit', summary: { total: 412, failed: 3 } });
});

it('with a key and the format detected: a passing report ships', async () => {
  const commit = sha('action-junit-passing');
  await checkRun(t, { repo_root: REPO, commit_sha: commit, name: 'build' });
  const run = await runAction(tests(commit, junitFile('passing.xml', 12, []), { 'api-key': operator.key }));
  expect([run.code, run.outputs.decision]).toEqual([0, 'SHIP']);
  expect(run.summary).toContain('<b>12 tests, 0 failed</b>');
  expect(run.summary).not.toContain('Failing:');
});

it('refuses a document over 10 MiB that evidence-format names before anything is sent; without evidence-format it records its digest', async () => {
  const commit = sha('action-junit-too-large');
  const file = path.join(dir, 'huge.xml');
  fs.writeFileSync(file, Buffer.alloc(10 * 1024 * 1024 + 1, 0x20));
  const run = await runAction(tests(commit, file, { 'api-key': operator.key, 'evidence-format': 'junit' }));
  expect(run.code).toBe(1);
  expect(run.log).toContain(
    `::error::evidence-file ${file} is 10,485,761 bytes; shipgate reads documents of at most 10 MiB (10,485,760 bytes).`,
  );
  expect((await decide(t, REPO, commit)).provenance.evidence).toEqual([]);

  const recorded = await runAction(tests(commit, file, { 'api-key': operator.key, decide: 'false' }));
  expect(recorded.code).toBe(0);
  expect(recorded.log).toContain(`::notice::evidence-file ${file} is 10,485,761 bytes; shipgate reads documents of at most 10 MiB`);
  const [evidence, ...more] = (await decide(t, REPO, commit)).provenance.evidence;
  expect([evidence, more]).toEqual([expect.objectContaining({ name: 'tests', digest: fileDigest(file) }), []]);
  expect(evidence.summary ?? null).toBeNull();
});

it("fails with shipgate's 422 and what to do on a document it cannot read; evidence-format: none records the digest only", async () => {
  const commit = sha('action-junit-unreadable');
  const file = path.join(dir, 'truncated.xml');
  fs.writeFileSync(file, '<?xml version="1.0"?><testsuites><testsuite name="cart"><testcase name="a">');
  const refused = await runAction(tests(commit, file, { 'api-key': operator.key, 'evidence-format': 'junit' }));
  expect(refused.code).toBe(1);
  expect(refused.log).toMatch(/::error::shipgate rejected the request to record evidence "tests" for acme\/reports \(422\): body\.content/);
  expect(refused.log).toContain('set evidence-format: none to record only its SHA-256');
  expect((await decide(t, REPO, commit)).provenance.evidence).toEqual([]);

  const recorded = await runAction(tests(commit, file, { 'api-key': operator.key, 'evidence-format': 'none', decide: 'false' }));
  expect(recorded.code).toBe(0);
  expect(recorded.log).not.toContain('shipgate read it');
  const [evidence] = (await decide(t, REPO, commit)).provenance.evidence;
  expect(evidence).toMatchObject({ name: 'tests', digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });
  expect(evidence.summary ?? null).toBeNull();
});

// Before shipgate read documents, any evidence-file was recorded by its SHA-256; a workflow that
// uploads a file of another kind keeps working (docs/action.md).
it('records an arbitrary evidence-file without evidence-format by its digest, with a notice, and exits 0', async () => {
  const commit = sha('action-arbitrary-file');
  const file = path.join(dir, 'release-notes.pdf');
  fs.writeFileSync(file, Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from(Array.from({ length: 2048 }, (_, i) => (i * 7) % 256))]));
  const run = await runAction(tests(commit, file, { 'api-key': operator.key, 'evidence-name': 'notes', decide: 'false' }));
  expect(run.code).toBe(0);
  expect(run.log).toContain(
    `::notice::shipgate does not read evidence-file ${file} (The document is not UTF-8 text.), so only its SHA-256 was recorded.`,
  );
  expect(run.log).toContain("so only its SHA-256 was recorded. Set evidence-format to the file's format to have it read");
  expect(run.log).not.toContain('::error::');
  expect(run.log).toContain(`Recorded evidence "notes" (passed, ${fileDigest(file)})`);
  const [evidence, ...more] = (await decide(t, REPO, commit)).provenance.evidence;
  expect([evidence, more]).toEqual([expect.objectContaining({ name: 'notes', status: 'passed', digest: fileDigest(file) }), []]);
  expect(evidence.summary ?? null).toBeNull();
});

it('fails when evidence-format names a format the file is not, saying why, and records nothing', async () => {
  const commit = sha('action-not-junit');
  const file = path.join(dir, 'coverage.json');
  fs.writeFileSync(file, JSON.stringify({ total: { lines: { pct: 91.2 } } }));
  const run = await runAction(tests(commit, file, { 'api-key': operator.key, 'evidence-format': 'junit' }));
  expect(run.code).toBe(1);
  expect(run.log).toMatch(
    /::error::shipgate rejected the request to record evidence "tests" for acme\/reports \(422\): body\.content: The document is not well-formed XML/,
  );
  expect(run.log).toContain(`evidence-file ${file} does not read as evidence-format junit.`);
  expect(run.log).not.toContain('::notice::');
  expect((await decide(t, REPO, commit)).provenance.evidence).toEqual([]);
});

it('reports an unknown evidence-format, and one without evidence-file', async () => {
  const bad = await runAction({ 'api-url': server.url, 'evidence-name': 'tests', 'evidence-file': 'x.xml', 'evidence-format': 'pdf' });
  expect(bad.log).toContain('evidence-format must be one of junit, sarif, cyclonedx, spdx, provenance, none (got "pdf").');
  const alone = await runAction({ 'api-url': server.url, 'evidence-name': 'tests', 'evidence-format': 'junit' });
  expect(alone.log).toContain('evidence-format needs evidence-file');
  expect([bad.code, alone.code]).toEqual([1, 1]);
});

it('SARIF, SBOM and provenance documents each get their line in the job summary', async () => {
  const fixture = (name: string) => path.resolve(import.meta.dirname, '../evidence-content/fixtures', name);
  const record = (commit: string, name: string, file: string) =>
    runAction({ ...tests(commit, fixture(file), { 'api-key': operator.key, decide: 'false' }), 'evidence-name': name });
  const [sarif, sbom, provenance] = await Promise.all([
    record(sha('action-sarif'), 'code-scanning', 'codeql-one-error.sarif'),
    record(sha('action-sbom'), 'sbom', 'cyclonedx-1.5-gpl.json'),
    record(sha('action-provenance'), 'provenance', 'slsa-provenance-statement.json'),
  ]);
  expect([sarif.code, sbom.code, provenance.code]).toEqual([0, 0, 0]);
  expect(sarif.summary).toContain('shipgate read it as sarif: <b>4 results: 1 error, 2 warning, 1 note</b>');
  expect(sarif.summary).toContain('<li>js/missing-rate-limiting (warning): 2</li><li>js/sql-injection (error): 1</li>');
  expect(sbom.summary).toContain('<b>CycloneDX 1.5 SBOM: 6 components, 4 licences, 1 without a licence</b>');
  expect(sbom.summary).toContain('<p>Without a licence:</p>\n<ul><li>mystery@0.0.1</li></ul>');
  expect(provenance.summary).toContain(
    '<b>provenance from builder https://github.com/actions/runner/github-hosted, build type https://actions.github.io/buildtypes/workflow/v1, 1 subject, unsigned</b>',
  );
  expect(provenance.summary).toContain('<li>4f2a9c1e7b3d5a6f8e0c2b4d6a8f0e1c3b5d7a9f</li>');
});
