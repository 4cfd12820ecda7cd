import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { decide, putGate, sha, upload } from '../support/release-api.js';
import { fixture, provenanceKey, provenanceStatement, uploadDocument } from './support/evidence-documents.js';

// Issue 24, acceptance 1-4 through the API (docs/release-gate.md, "Evidence read by content"): the gate judges what an
// uploaded document says, not only the status CI claims.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const newRepo = () => `acme/content-${randomUUID().slice(0, 8)}`;
const blockers = (d: { blockers: { code: string; component: string }[] }) => d.blockers.map((b) => `${b.code} ${b.component}`);

/** A repository with `entry` as its one required evidence, `bytes` uploaded under it (claimed passed), and the decision. */
async function judged(entry: unknown, bytes: Buffer, options: { format?: string; commit?: string; status?: 'passed' | 'failed' } = {}) {
  const repo = newRepo();
  const commit = options.commit ?? sha(randomUUID());
  await putGate(t, repo, { required_evidence: [entry] } as never);
  const name = typeof entry === 'string' ? entry : (entry as { name: string }).name;
  await uploadDocument(t, { repo, commit, name, bytes, format: options.format, status: options.status });
  return decide(t, repo, commit);
}

describe('tests (JUnit)', () => {
  const entry = { name: 'tests', format: 'junit', rules: { max_failed: 0 } };

  it('a report with 3 failures uploaded as passed is NO_SHIP, naming the 3 failing tests; with none it is SHIP', async () => {
    const failing = await judged(entry, fixture('jest-junit-failing.xml'));
    expect(failing.decision).toBe('NO_SHIP');
    expect(blockers(failing)).toEqual(['evidence_content_failed evidence:tests:max_failed']);
    const [blocker] = failing.blockers;
    expect(blocker.reason).toMatch(/^Evidence 'tests' breaks rule max_failed: 3 of 9 tests failed: /);
    for (const test of ['removes an item', 'applies a discount code', 'retries a declined card']) expect(blocker.reason).toContain(test);
    expect(blocker.remediation_suggestion).toMatch(/Fix the failing tests/);
    expect(blocker.waitable).toBe(false);
    const [item] = failing.provenance.evidence;
    expect(item).toMatchObject({ name: 'tests', status: 'passed', format: 'junit', summary: { format: 'junit', total: 9, failed: 3 } });
    expect(item.rule_results).toEqual([expect.objectContaining({ rule: 'max_failed', passed: false })]);
    expect(item.summary_digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(item.document).toMatchObject({ media_type: 'application/xml', download_url: expect.stringMatching(/\/document$/) });

    const passing = await judged(entry, fixture('jest-junit-passing.xml'));
    expect([passing.decision, passing.blockers]).toEqual(['SHIP', []]);
    expect(passing.provenance.evidence[0].rule_results).toEqual([expect.objectContaining({ rule: 'max_failed', passed: true })]);
  });

  it('reads reports of two producers alike (jest-junit, Maven surefire)', async () => {
    const surefire = await judged(entry, fixture('surefire-failing.xml'));
    expect(blockers(surefire)).toEqual(['evidence_content_failed evidence:tests:max_failed']);
    expect(surefire.blockers[0].reason).toMatch(/3 of 6 tests failed \(1 with errors\)/);
    expect((await judged(entry, fixture('surefire-passing.xml'))).decision).toBe('SHIP');
  });

  it('a plain name gets the default rule when a document is uploaded, and the status alone without one', async () => {
    expect(blockers(await judged('tests', fixture('jest-junit-failing.xml')))).toEqual([
      'evidence_content_failed evidence:tests:max_failed',
    ]);
    expect((await judged('tests', fixture('jest-junit-passing.xml'))).decision).toBe('SHIP');
  });

  it('an entry with a format needs a document: evidence uploaded without one blocks', async () => {
    const [repo, commit] = [newRepo(), sha(randomUUID())];
    await putGate(t, repo, { required_evidence: [entry] } as never);
    await upload(t, { repo_root: repo, commit_sha: commit, name: 'tests' });
    const d = await decide(t, repo, commit);
    expect(blockers(d)).toEqual(['evidence_content_failed evidence:tests:document']);
    expect(d.provenance.evidence[0].rule_results).toEqual([expect.objectContaining({ rule: 'document', passed: false })]);
    expect(d.provenance.evidence[0]).not.toHaveProperty('summary_digest');
  });

  it('a suite whose count is written as a decimal or an exponent (errors="1.0", failures="1e3") blocks: counted, not read as 0', async () => {
    const suite = (counts: string) => Buffer.from(`<testsuites><testsuite name="src/broken-${randomUUID()}" ${counts}/></testsuites>`);
    const decimal = await judged('tests', suite('tests="1" errors="1.0"'));
    expect(blockers(decimal)).toEqual(['evidence_content_failed evidence:tests:max_failed']);
    expect(decimal.provenance.evidence[0].summary).toMatchObject({ total: 1, failed: 0, errored: 1 });
    const exponent = await judged('tests', suite('failures="1e3"'));
    expect(exponent.provenance.evidence[0].summary).toMatchObject({ total: 1000, failed: 1000 });
    expect(exponent.blockers[0].reason).toMatch(/1000 of 1000 tests failed/);
  });

  it('a claimed failed still blocks whatever the document says', async () => {
    const d = await judged(entry, fixture('jest-junit-passing.xml'), { status: 'failed' });
    expect(blockers(d)).toEqual(['required_evidence_failed evidence:tests']);
  });
});

describe('code scanning (SARIF)', () => {
  it('one error result blocks under the default rule; with that rule in ignore_rules it passes', async () => {
    const d = await judged({ name: 'codeql', format: 'sarif' }, fixture('codeql-one-error.sarif'));
    expect(blockers(d)).toEqual(['evidence_content_failed evidence:codeql:max_level']);
    expect(d.blockers[0].reason).toContain('js/sql-injection');
    const ignored = { name: 'codeql', format: 'sarif', rules: { ignore_rules: ['js/sql-injection'] } };
    expect((await judged(ignored, fixture('codeql-one-error.sarif'))).decision).toBe('SHIP');
  });
});

describe('SBOM (CycloneDX, SPDX)', () => {
  const rules = { denied_licenses: ['GPL-3.0-only'] };

  it.each([
    ['cyclonedx', 'cyclonedx-1.5-gpl.json'],
    ['spdx', 'spdx-2.3-gpl.json'],
  ])('%s: a GPL-3.0-only component blocks under denied_licenses [GPL-3.0-only]', async (format, file) => {
    const d = await judged({ name: 'sbom', format, rules }, fixture(file));
    expect(blockers(d)).toEqual(['evidence_content_failed evidence:sbom:denied_licenses']);
    expect(d.blockers[0].reason).toContain('GPL-3.0-only');
    expect((await judged({ name: 'sbom', format, rules: { denied_licenses: ['AGPL-3.0-only'] } }, fixture(file))).decision).toBe('SHIP');
  });
});

describe('build provenance (in-toto SLSA v1)', () => {
  const builder = 'https://github.com/actions/runner/github-hosted';

  it('blocks another commit, a builder not allowed, or a signature the named key did not make; a correct one passes', async () => {
    const commit = sha(randomUUID());
    const key = provenanceKey(`release-${randomUUID().slice(0, 6)}`);
    const stranger = provenanceKey('stranger');
    const entry = (rules: Record<string, unknown>) => ({ name: 'provenance', format: 'provenance', rules });
    const signed = (c: string, by = key) => by.envelope(provenanceStatement(c));
    const keys = [key.jwk];

    const right = await judged(entry({ builder_ids: [builder], keys }), signed(commit), { commit });
    expect([right.decision, right.blockers]).toEqual(['SHIP', []]);
    expect(right.provenance.evidence[0].summary).toMatchObject({ envelope: true, builder_id: builder, source_commits: [commit] });

    const otherCommit = await judged(entry({ builder_ids: [builder], keys }), signed(sha('another')), { commit });
    expect(blockers(otherCommit)).toEqual(['evidence_content_failed evidence:provenance:commit_must_match']);

    const otherBuilder = await judged(entry({ builder_ids: ['https://ci.example.com/builder'], keys }), signed(commit), { commit });
    expect(blockers(otherBuilder)).toEqual(['evidence_content_failed evidence:provenance:builder_ids']);

    const unsigned = await judged(entry({ keys }), signed(commit, stranger), { commit });
    expect(blockers(unsigned)).toEqual(['evidence_content_failed evidence:provenance:keys']);
  });
});
