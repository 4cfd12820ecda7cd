import { createHash, randomUUID } from 'node:crypto';
import { setGateFromFile } from '../../core/release/set-gate-from-file.js';
import { pruneEvidenceDocuments } from '../../db/prune-evidence-documents.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { decide, sha } from '../support/release-api.js';
import { fixture, sendDocument, stored, uploadDocument } from './support/evidence-documents.js';

// Issue 24, acceptance 5 and the document's life (docs/release-gate.md, "Evidence read by content"): refused documents
// leave nothing behind, the same bytes are stored once, the download is an attachment, the gate file takes entries.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const newRepo = () => `acme/documents-${randomUUID().slice(0, 8)}`;
const digestOf = (bytes: Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
/** Bytes no other test uploads: a passing report with a unique suite name. */
const uniqueReport = () =>
  Buffer.from(`<?xml version="1.0"?><testsuite name="s-${randomUUID()}" tests="1"><testcase classname="a" name="b"/></testsuite>`);

describe('refused documents: 422 with loc, 413 with detail, nothing stored', () => {
  it.each([
    ['truncated XML', Buffer.from('<?xml version="1.0"?><testsuite name="x" tests="1"><testcase name="a"'), 'junit'],
    ['SARIF of another version', Buffer.from(JSON.stringify({ version: '2.0.0', runs: [] })), 'sarif'],
    ['JSON declared as an SBOM that is not one', Buffer.from(JSON.stringify({ hello: 'world', n: randomUUID() })), 'cyclonedx'],
    ['a document of no known format', Buffer.from(`just text ${randomUUID()}`), undefined],
    ['a JUnit suite count that is no number', Buffer.from(`<testsuite name="${randomUUID()}" errors="NaN"/>`), 'junit'],
  ])('%s is 422 with loc inside the content', async (_what, bytes, format) => {
    const [repo, commit] = [newRepo(), sha(randomUUID())];
    const res = await sendDocument(t, { repo, commit, name: 'doc', bytes, format });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      { loc: expect.arrayContaining(['body', 'content']), msg: expect.any(String), type: 'evidence_document_invalid' },
    ]);
    expect(res.body.detail[0].loc.slice(0, 2)).toEqual(['body', 'content']);
    expect(await stored(t, repo, commit, bytes)).toEqual({ evidence: 0, copies: 0 });
  });

  it('an 11 MiB document is 413 with {detail}, and a body past the route limit too', async () => {
    const [repo, commit] = [newRepo(), sha(randomUUID())];
    const big = Buffer.alloc(11 * 1024 * 1024, 0x20);
    const res = await sendDocument(t, { repo, commit, name: 'big', bytes: big, format: 'junit' });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ detail: expect.stringMatching(/at most 10 MiB\. Nothing was stored\./) });
    const huge = await sendDocument(t, { repo, commit, name: 'big', bytes: Buffer.alloc(13 * 1024 * 1024, 0x20), format: 'junit' });
    expect([huge.status, huge.body]).toEqual([413, { detail: 'Request body exceeds 16 MiB.' }]);
    expect(await stored(t, repo, commit, big)).toEqual({ evidence: 0, copies: 0 });
  });

  it('a client digest that differs from the bytes is 422; the same digest (or none) is taken', async () => {
    const [repo, commit, bytes] = [newRepo(), sha(randomUUID()), uniqueReport()];
    const wrong = await sendDocument(t, { repo, commit, name: 'tests', bytes, digest: 'sha256:' + '0'.repeat(64) });
    expect([wrong.status, wrong.body.detail[0].loc]).toEqual([422, ['body', 'digest']]);
    expect(await stored(t, repo, commit, bytes)).toEqual({ evidence: 0, copies: 0 });
    const record = await uploadDocument(t, {
      repo,
      commit,
      name: 'tests',
      bytes,
      digest: digestOf(bytes).toUpperCase().replace('SHA256', 'sha256'),
    });
    expect(record.digest).toBe(digestOf(bytes));
  });

  it('format without content is 422', async () => {
    const res = await t.request
      .post('/api/v1/releases/evidence')
      .set(t.admin.auth)
      .send({
        repo_root: newRepo(),
        commit_sha: sha('f'),
        kind: 'x',
        name: 'x',
        status: 'passed',
        produced_at: new Date().toISOString(),
        format: 'junit',
      });
    expect([res.status, res.body.detail[0].loc]).toEqual([422, ['body', 'format']]);
  });
});

describe('stored documents', () => {
  it('the same bytes uploaded twice are one row in evidence_documents, cited by both records', async () => {
    const [repo, bytes] = [newRepo(), uniqueReport()];
    const first = await uploadDocument(t, { repo, commit: sha(randomUUID()), name: 'tests', bytes });
    const second = await uploadDocument(t, { repo, commit: sha(randomUUID()), name: 'tests', bytes, format: 'junit' });
    expect(second.document).toEqual({ ...first.document, download_url: `/api/v1/releases/evidence/${second.id}/document` });
    expect(first).toMatchObject({ format: 'junit', digest: digestOf(bytes), summary: { format: 'junit', total: 1, failed: 0 } });
    expect(first.document).toMatchObject({ digest: digestOf(bytes), size: bytes.length, media_type: 'application/xml' });
    const copies = await t.database
      .db('evidence_documents')
      .where({ digest: digestOf(bytes) })
      .count({ n: '*' });
    expect(Number(copies[0].n)).toBe(1);
    const citing = await t.database
      .db('evidence')
      .where({ document_digest: digestOf(bytes) })
      .count({ n: '*' });
    expect(Number(citing[0].n)).toBe(2);
  });

  it('downloads as an attachment with its format’s content type, never sniffed, for any role; 404 without one', async () => {
    const [repo, commit] = [newRepo(), sha(randomUUID())];
    const bytes = fixture('codeql-one-error.sarif');
    const record = await uploadDocument(t, { repo, commit, name: 'code scanning/CodeQL', bytes });
    const viewer = await t.user('VIEWER');
    const res = await t.request
      .get(record.document.download_url)
      .set(viewer.auth)
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/sarif+json');
    expect(res.headers['content-disposition']).toBe('attachment; filename="code_scanning_CodeQL.sarif"');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(res.body as Buffer, bytes)).toBe(0);
    const plain = await t.request.post('/api/v1/releases/evidence').set(t.admin.auth).send({
      repo_root: repo,
      commit_sha: commit,
      kind: 'x',
      name: 'plain',
      status: 'passed',
      produced_at: new Date().toISOString(),
    });
    expect(plain.body.document).toBeNull();
    for (const id of [plain.body.id, randomUUID()]) {
      const missing = await t.request.get(`/api/v1/releases/evidence/${id}/document`).set(viewer.auth);
      expect([missing.status, missing.body]).toEqual([404, { detail: 'Evidence document not found.' }]);
    }
    expect((await t.request.get(record.document.download_url)).status).toBe(401);
  });
});

describe('.github/shipgate.yml', () => {
  it('takes required_evidence entries as names and {name, format, rules}', async () => {
    const [repo, commit] = [newRepo(), sha(randomUUID())];
    const yml = 'required_evidence:\n  - sbom\n  - name: tests\n    format: junit\n    rules:\n      max_failed: 2\n      min_total: 5\n';
    const { version } = await setGateFromFile(t.deps.release.store, repo, yml);
    expect(version.gate.required_evidence).toEqual(['sbom', { name: 'tests', format: 'junit', rules: { max_failed: 2, min_total: 5 } }]);
    await uploadDocument(t, { repo, commit, name: 'tests', bytes: fixture('jest-junit-failing.xml') });
    await uploadDocument(t, { repo, commit, name: 'sbom', bytes: fixture('cyclonedx-1.5-gpl.json') });
    const d = await decide(t, repo, commit);
    expect(d.blockers.map((b: { code: string; component: string }) => `${b.code} ${b.component}`)).toEqual([
      'evidence_content_failed evidence:tests:max_failed',
    ]);
    expect(d.provenance.evidence.find((e: { name: string }) => e.name === 'sbom').rule_results).toEqual([]);
  });
});

describe('retention', () => {
  it('prunes a document whose evidence is stale and cited by no snapshot; keeps fresh and cited ones', async () => {
    const repo = newRepo();
    const [orphan, cited, fresh] = [uniqueReport(), uniqueReport(), uniqueReport()];
    const commits = [sha(randomUUID()), sha(randomUUID()), sha(randomUUID())];
    await uploadDocument(t, { repo, commit: commits[0], name: 'tests', bytes: orphan });
    await uploadDocument(t, { repo, commit: commits[1], name: 'tests', bytes: cited });
    await decide(t, repo, commits[1]); // a snapshot now cites it
    await uploadDocument(t, { repo, commit: commits[2], name: 'tests', bytes: fresh });
    const db = t.database.db;
    const old = new Date(Date.now() - 8 * 24 * 3600 * 1000);
    await db('evidence').whereIn('commit_sha', commits.slice(0, 2)).where({ repo_root: repo }).update({ produced_at: old });
    await db('evidence_documents').whereIn('digest', [orphan, cited, fresh].map(digestOf)).update({ uploaded_at: old });
    while ((await pruneEvidenceDocuments(db)) > 0);
    const left = (await db('evidence_documents').whereIn('digest', [orphan, cited, fresh].map(digestOf)).pluck('digest')).sort();
    expect(left).toEqual([digestOf(cited), digestOf(fresh)].sort());
    const record = await db('evidence').where({ repo_root: repo, commit_sha: commits[0] }).first();
    expect(record).toMatchObject({ document_digest: null, digest: digestOf(orphan), format: 'junit' });
  });
});
