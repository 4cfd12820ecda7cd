import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { checkRun, decide, promote, putGate, sha, upload } from '../support/release-api.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const repo = 'acme/badges';
const badge = (query: Record<string, string>, headers: Record<string, string> = {}) =>
  t.request
    .get('/api/v1/trust/badge')
    .query(query)
    .set(headers)
    .buffer(true)
    .parse((res, done) => {
      let text = '';
      res.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      res.on('end', () => done(null, text));
    });

function level(svg: string): string {
  expect(XMLValidator.validate(svg)).toBe(true);
  const doc = new XMLParser({ ignoreAttributes: false }).parse(svg);
  return doc.svg['@_aria-label'];
}

beforeAll(async () => {
  await putGate(t, repo, { required_checks: ['ci'], require_reviewed_release: false });
});

describe('GET /trust/badge', () => {
  it('shows Assured for SHIP, Blocked for NO_SHIP and Unknown without a decision, publicly, as SVG', async () => {
    const ship = sha('badge-ship');
    const noShip = sha('badge-no-ship');
    await checkRun(t, { repo_root: repo, commit_sha: ship, name: 'ci' });
    await checkRun(t, { repo_root: repo, commit_sha: noShip, name: 'ci', conclusion: 'failure' });
    expect(level((await badge({ repo, commit: ship })).body)).toBe('shipgate: Unknown');
    await decide(t, repo, ship);
    await decide(t, repo, noShip);
    const assured = await badge({ repo, commit: ship.toUpperCase() });
    expect(assured.status).toBe(200);
    expect(assured.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(assured.headers['cache-control']).toBe('no-cache');
    expect(level(assured.body)).toBe('shipgate: Assured');
    expect(assured.body).toContain('#4c1');
    const blocked = await badge({ repo: 'https://github.com/Acme/Badges', commit: noShip });
    expect(level(blocked.body)).toBe('shipgate: Blocked');
    expect(blocked.body).toContain('#e05d44');
    const unknown = await badge({ repo: 'acme/never-seen', commit: ship });
    expect(level(unknown.body)).toBe('shipgate: Unknown');
    expect(unknown.body).toContain('#9f9f9f');
    expect(level((await badge({ repo: 'not a repo', commit: ship })).body)).toBe('shipgate: Unknown');
  });

  it('shows Blocked once a SHIP snapshot is revoked', async () => {
    const commit = sha('badge-revoked');
    await checkRun(t, { repo_root: repo, commit_sha: commit, name: 'ci' });
    const d = await decide(t, repo, commit);
    await promote(t, { snapshot_id: d.snapshot_id, target_status: 'attested' });
    expect(level((await badge({ repo, commit })).body)).toBe('shipgate: Assured');
    await promote(t, { snapshot_id: d.snapshot_id, target_status: 'revoked' });
    expect(level((await badge({ repo, commit })).body)).toBe('shipgate: Blocked');
  });

  it('answers 304 to If-None-Match with the current ETag, and a new body when the level changes', async () => {
    const commit = sha('badge-etag');
    await checkRun(t, { repo_root: repo, commit_sha: commit, name: 'ci', external_id: 'etag' });
    await decide(t, repo, commit);
    const first = await badge({ repo, commit });
    const etag = first.headers.etag;
    expect(etag).toMatch(/^"[0-9a-f]+"$/);
    const cached = await badge({ repo, commit }, { 'If-None-Match': etag });
    expect(cached.status).toBe(304);
    expect(cached.headers.etag).toBe(etag);
    expect(cached.body).toBe('');
    await checkRun(t, {
      repo_root: repo,
      commit_sha: commit,
      name: 'ci',
      external_id: 'etag-2',
      conclusion: 'failure',
      completed_at: new Date(Date.now() + 1000).toISOString(),
    });
    await decide(t, repo, commit);
    const changed = await badge({ repo, commit }, { 'If-None-Match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(level(changed.body)).toBe('shipgate: Blocked');
  });

  it('resolves HEAD and branch names from refs recorded with evidence and check runs, newest observation winning', async () => {
    const refRepo = 'acme/badge-refs';
    await putGate(t, refRepo, { require_reviewed_release: false, required_checks: ['ci'] });
    const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000).toISOString();
    const older = sha('ref-old');
    const newer = sha('ref-new');
    await checkRun(t, { repo_root: refRepo, commit_sha: older, name: 'ci', ref: 'refs/heads/main', completed_at: hoursAgo(3) });
    await upload(t, { repo_root: refRepo, commit_sha: newer, name: 'scan', ref: 'main', produced_at: hoursAgo(2) });
    await checkRun(t, { repo_root: refRepo, commit_sha: older, name: 'ci', ref: 'feature/x', completed_at: hoursAgo(3) });
    await decide(t, refRepo, older);
    await decide(t, refRepo, newer);
    expect(level((await badge({ repo: refRepo, commit: 'main' })).body)).toBe('shipgate: Blocked');
    expect(level((await badge({ repo: refRepo, commit: 'HEAD' })).body)).toBe('shipgate: Blocked');
    expect(level((await badge({ repo: refRepo, commit: 'feature/x' })).body)).toBe('shipgate: Assured');
    expect(level((await badge({ repo: refRepo, commit: 'no-such-branch' })).body)).toBe('shipgate: Unknown');
    // A late delivery about an older commit does not move the branch back.
    await checkRun(t, { repo_root: refRepo, commit_sha: older, name: 'ci', ref: 'main', completed_at: hoursAgo(4), external_id: 'late' });
    expect(level((await badge({ repo: refRepo, commit: 'main' })).body)).toBe('shipgate: Blocked');
    // An explicitly recorded HEAD wins over the main fallback.
    await checkRun(t, { repo_root: refRepo, commit_sha: older, name: 'ci', ref: 'HEAD', external_id: 'head' });
    await decide(t, refRepo, older);
    expect(level((await badge({ repo: refRepo, commit: 'HEAD' })).body)).toBe('shipgate: Assured');
  });

  it('shows Unknown for a gate with public_badge false', async () => {
    const privateRepo = 'acme/badge-private';
    await putGate(t, privateRepo, { require_reviewed_release: false });
    const commit = sha('badge-private');
    await checkRun(t, { repo_root: privateRepo, commit_sha: commit, name: 'ci' });
    await decide(t, privateRepo, commit);
    expect(level((await badge({ repo: privateRepo, commit })).body)).toBe('shipgate: Assured');
    await putGate(t, privateRepo, { require_reviewed_release: false, public_badge: false });
    expect(level((await badge({ repo: privateRepo, commit })).body)).toBe('shipgate: Unknown');
  });

  it('shows Unknown, not an error, for a commit that names no branch (a NUL, a space, `..`), as for an invalid repository', async () => {
    for (const commit of ['\u0000', 'main\u0000', 'a b', 'main..x', 'x.lock', '@']) {
      const res = await badge({ repo, commit });
      expect([res.status, res.headers['content-type'], level(res.body)]).toEqual([
        200,
        expect.stringMatching(/^image\/svg\+xml/),
        'shipgate: Unknown',
      ]);
    }
  });

  it('answers 422 without its parameters', async () => {
    expect((await t.request.get('/api/v1/trust/badge').query({ repo })).status).toBe(422);
  });
});
