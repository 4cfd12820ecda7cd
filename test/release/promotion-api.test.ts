import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { specVerify } from '../certificates/support/independent-dsse.js';
import { statementProblems, verificationSummaryProblems } from '../certificates/support/in-toto-shapes.js';
import { sigstoreVerify } from '../certificates/support/sigstore-verify.js';
import { checkRun, decide, promote, putGate, reviewedRelease, sha } from '../support/release-api.js';

let t: TestApp;
const PUBLIC_URL = 'https://shipgate.example.com';
beforeAll(async () => {
  t = await createTestApp({ SHIPGATE_PUBLIC_URL: PUBLIC_URL });
});
afterAll(async () => {
  await t.close();
});

const repo = 'acme/promotions';
let n = 0;

interface Statement {
  subject: unknown[];
  predicate: { verificationResult: string } & Record<string, unknown>;
}

beforeAll(async () => {
  await putGate(t, repo, { required_checks: ['ci'], require_reviewed_release: false });
});

/** A fresh commit whose latest decision is SHIP (or NO_SHIP with a failing check). */
async function snapshot(conclusion = 'success') {
  const commit = sha(`promo-${++n}`);
  await checkRun(t, { repo_root: repo, commit_sha: commit, name: 'ci', conclusion });
  return decide(t, repo, commit);
}

/** The keys GET /compliance/keys publishes (public, no key needed). */
async function publishedKeys(): Promise<{ x: string; kid: string }[]> {
  const res = await t.request.get('/api/v1/compliance/keys');
  expect(res.status).toBe(200);
  return res.body.keys;
}

async function moveTo(snapshotId: string, ...targets: string[]) {
  for (const target_status of targets) {
    const res = await promote(t, { snapshot_id: snapshotId, target_status });
    if (res.status !== 201) throw new Error(`${target_status}: ${res.status} ${JSON.stringify(res.body)}`);
  }
}

describe('POST /releases/promote', () => {
  it('attests a SHIP snapshot with a signed SLSA verification summary about the commit', async () => {
    const approver = await t.user('APPROVER');
    const d = await snapshot();
    const res = await promote(
      t,
      { snapshot_id: d.snapshot_id, target_status: 'attested', release_label: 'v1.0.0', metadata: { channel: 'stable' } },
      approver,
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      snapshot_id: d.snapshot_id,
      repo_root: repo,
      commit_sha: d.commit_sha,
      from_status: 'candidate',
      status: 'attested',
      release_label: 'v1.0.0',
      metadata: { channel: 'stable' },
      promoted_by: approver.id,
      promoted_by_name: (await t.database.db('users').where({ id: approver.id }).first('name')).name,
      created_at: expect.any(String),
      attestation: expect.any(Object),
    });
    expect(t.deps.verifier.verify(res.body.attestation).verified).toBe(true);
    const statement = specVerify(res.body.attestation, await publishedKeys()) as Statement;
    expect(statement).toMatchObject({
      _type: 'https://in-toto.io/Statement/v1',
      subject: [{ name: repo, digest: { gitCommit: d.commit_sha } }],
      predicateType: 'https://slsa.dev/verification_summary/v1',
      predicate: {
        verificationResult: 'PASSED',
        policy: { uri: `${PUBLIC_URL}/api/v1/releases/gates/${repo}?version=${d.gate.version}`, digest: { sha256: d.gate.digest } },
        'https://shipgate.dev/attestations/promotion/v1': { snapshot_id: d.snapshot_id, status: 'attested', release_label: 'v1.0.0' },
      },
    });
    // As a VSA v1 verifier reads it: required fields, URI-named extensions; and sigstore's verifier accepts the envelope.
    expect(statementProblems(statement)).toEqual([]);
    expect(verificationSummaryProblems(statement.predicate)).toEqual([]);
    expect(statement.predicate).not.toHaveProperty('inputAttestations');
    expect(sigstoreVerify(res.body.attestation, await publishedKeys())).toEqual(statement);
    expect((await decide(t, repo, d.commit_sha)).snapshot_status).toBe('attested');
  });

  it('allows every transition of the "Release gate" section of docs/release-gate.md', async () => {
    const a = await snapshot();
    await moveTo(a.snapshot_id, 'attested', 'promoted', 'revoked');
    const b = await snapshot();
    await moveTo(b.snapshot_id, 'attested', 'revoked');
    const c = await snapshot('failure');
    await moveTo(c.snapshot_id, 'rejected');
    const revoked = await promote(t, { snapshot_id: b.snapshot_id, target_status: 'revoked' });
    const statement = specVerify(revoked.body.attestation, await publishedKeys()) as Statement;
    expect(statement.predicate.verificationResult).toBe('FAILED');
  });

  it.each([
    [[], 'promoted', 'A candidate snapshot cannot become promoted: promoted is reachable only from attested.'],
    [[], 'revoked', 'A candidate snapshot cannot become revoked: revoked is reachable only from attested or promoted.'],
    [['attested'], 'rejected', 'A attested snapshot cannot become rejected: rejected is reachable only from candidate.'],
    [['attested', 'promoted'], 'rejected', 'A promoted snapshot cannot become rejected: rejected is reachable only from candidate.'],
    [['rejected'], 'revoked', 'A rejected snapshot cannot become revoked: revoked is reachable only from attested or promoted.'],
    [['rejected'], 'attested', 'A rejected snapshot cannot become attested: attested is reachable only from candidate.'],
    [['attested', 'revoked'], 'promoted', 'A revoked snapshot cannot become promoted: promoted is reachable only from attested.'],
  ])('after %p refuses %s with 409 and the reason', async (path, target, reason) => {
    const d = await snapshot();
    await moveTo(d.snapshot_id, ...path);
    const res = await promote(t, { snapshot_id: d.snapshot_id, target_status: target });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ detail: reason });
  });

  it('refuses to attest a NO_SHIP snapshot (409, naming the blockers)', async () => {
    const d = await snapshot('failure');
    const res = await promote(t, { snapshot_id: d.snapshot_id, target_status: 'attested' });
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe('Only a SHIP snapshot can be attested; this one is NO_SHIP (required_check_failed).');
  });

  it("refuses to attest a snapshot that is no longer the commit's latest (409 stale)", async () => {
    const d = await snapshot();
    await checkRun(t, { repo_root: repo, commit_sha: d.commit_sha, name: 'lint' });
    const res = await promote(t, { snapshot_id: d.snapshot_id, target_status: 'attested' });
    expect(res.status).toBe(409);
    const latest = await decide(t, repo, d.commit_sha);
    expect(res.body.detail).toContain(`its latest snapshot is ${latest.snapshot_id}`);
    expect((await promote(t, { snapshot_id: latest.snapshot_id, target_status: 'attested' })).status).toBe(201);
  });

  it('answers a repeated request with 200 and the same record, and a conflicting repeat with 409', async () => {
    const d = await snapshot();
    const body = { snapshot_id: d.snapshot_id, target_status: 'attested', release_label: 'v2', metadata: { a: 1, b: [1, 2] } };
    const first = await promote(t, body);
    const again = await promote(t, { ...body, metadata: { b: [1, 2], a: 1 } });
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const other = await promote(t, { ...body, release_label: 'v3' });
    expect(other.status).toBe(409);
    expect(other.body.detail).toContain('already attested');
    const list = await t.request.get('/api/v1/releases/promotions').set(t.admin.auth).query({ commit_sha: d.commit_sha });
    expect(list.body.promotions).toHaveLength(1);
    await moveTo(d.snapshot_id, 'promoted');
    const late = await promote(t, body);
    expect(late.status).toBe(200);
    expect(late.body).toEqual(first.body);
  });

  it('answers 404 for an unknown snapshot and 422 for a malformed request', async () => {
    expect((await promote(t, { snapshot_id: randomUUID(), target_status: 'attested' })).status).toBe(404);
    expect((await promote(t, { snapshot_id: 'nope', target_status: 'attested' })).status).toBe(422);
    const d = await snapshot();
    expect((await promote(t, { snapshot_id: d.snapshot_id, target_status: 'candidate' })).status).toBe(422);
  });

  it('refuses (422) a number JSON.parse reads as Infinity, at any depth, rather than recording it as null', async () => {
    const d = await snapshot();
    for (const metadata of ['{"n":1e400}', '{"a":{"b":[1,-1e400]}}']) {
      const res = await t.request
        .post('/api/v1/releases/promote')
        .set(t.admin.auth)
        .set('Content-Type', 'application/json')
        .send(`{"snapshot_id":"${d.snapshot_id}","target_status":"attested","metadata":${metadata}}`);
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual([
        expect.objectContaining({ loc: ['body'], type: 'number_out_of_range', msg: expect.stringMatching(/1e400/) }),
      ]);
    }
    expect((await decide(t, repo, d.commit_sha)).snapshot_status).toBe('candidate');
    const kept = await promote(t, { snapshot_id: d.snapshot_id, target_status: 'attested', metadata: { n: 1.7976931348623157e308 } });
    expect([kept.status, kept.body.metadata]).toEqual([201, { n: 1.7976931348623157e308 }]);
  });

  it('answers 403 to every role but ADMIN and APPROVER, and 401 without a key', async () => {
    const d = await snapshot();
    for (const role of ['VIEWER', 'OPERATOR', 'AUDITOR', 'POLICY_AUTHOR'] as const) {
      const res = await promote(t, { snapshot_id: d.snapshot_id, target_status: 'attested' }, await t.user(role));
      expect(res.status).toBe(403);
    }
    expect((await t.request.post('/api/v1/releases/promote').send({ snapshot_id: d.snapshot_id, target_status: 'attested' })).status).toBe(
      401,
    );
  });

  it('with separation of duties, refuses (403) an approver who owns a workflow in the evidence, and lets another approve', async () => {
    const sodRepo = 'acme/sod';
    await putGate(t, sodRepo, { separation_of_duties: true });
    const author = await t.user('APPROVER');
    const other = await t.user('APPROVER');
    const commit = sha('sod');
    await reviewedRelease(t.database.db, author.id, sodRepo, commit);
    const d = await decide(t, sodRepo, commit);
    expect(d.decision).toBe('SHIP');
    const refused = await promote(t, { snapshot_id: d.snapshot_id, target_status: 'attested' }, author);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toContain('Separation of duties');
    expect((await promote(t, { snapshot_id: d.snapshot_id, target_status: 'attested' }, other)).status).toBe(201);
    expect((await promote(t, { snapshot_id: d.snapshot_id, target_status: 'promoted' }, author)).status).toBe(403);
    expect((await promote(t, { snapshot_id: d.snapshot_id, target_status: 'revoked' }, author)).status).toBe(201);
  });

  it('lets the owner of the evidence approve when the gate does not ask for separation of duties', async () => {
    const commit = sha('no-sod');
    await putGate(t, 'acme/no-sod', {});
    const owner = await t.user('APPROVER');
    await reviewedRelease(t.database.db, owner.id, 'acme/no-sod', commit);
    const d = await decide(t, 'acme/no-sod', commit);
    expect((await promote(t, { snapshot_id: d.snapshot_id, target_status: 'attested' }, owner)).status).toBe(201);
  });
});

describe('GET /releases/promotions', () => {
  it('lists promotions newest first, filtered by repo_root and commit_sha, to every role', async () => {
    const other = 'acme/promotion-list';
    await putGate(t, other, { require_reviewed_release: false });
    const commits = [sha('list-1'), sha('list-2')];
    for (const commit of commits) {
      await checkRun(t, { repo_root: other, commit_sha: commit, name: 'ci' });
      const d = await decide(t, other, commit);
      await moveTo(d.snapshot_id, 'attested', 'promoted');
    }
    const viewer = await t.user('VIEWER');
    const all = await t.request
      .get('/api/v1/releases/promotions')
      .set(viewer.auth)
      .query({ repo_root: 'https://github.com/acme/promotion-list' });
    expect(all.status).toBe(200);
    expect(all.body.promotions.map((p: { commit_sha: string; status: string }) => `${p.commit_sha}:${p.status}`)).toEqual([
      `${commits[1]}:promoted`,
      `${commits[1]}:attested`,
      `${commits[0]}:promoted`,
      `${commits[0]}:attested`,
    ]);
    const one = await t.request
      .get('/api/v1/releases/promotions')
      .set(viewer.auth)
      .query({ repo_root: other, commit_sha: commits[0], limit: 1 });
    expect(one.body.promotions).toHaveLength(1);
    expect(one.body.promotions[0]).toMatchObject({ commit_sha: commits[0], status: 'promoted' });
    expect(one.headers.link).toMatch(/rel="next"/);
    const next = await t.request.get(one.headers.link.match(/<([^>]+)>/)![1]).set(viewer.auth);
    expect(next.body.promotions.map((p: { status: string }) => p.status)).toEqual(['attested']);
    expect((await t.request.get('/api/v1/releases/promotions')).status).toBe(401);
    expect((await t.request.get('/api/v1/releases/promotions').set(viewer.auth).query({ commit_sha: 'xyz' })).status).toBe(422);
  });
});
