import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { checkRun, decide, putGate, sha, upload } from '../support/release-api.js';
import { fixture } from './support/evidence-documents.js';

// GET /releases/commits, /releases/history and /releases/evidence (docs/api.md, "Release overview").
let t: TestApp;
let viewer: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  viewer = await t.user('VIEWER');
});
afterAll(async () => {
  await t.close();
});

/** A repository of its own per test, gated on the check `ci`. */
async function freshRepo() {
  const repo = `acme/overview-${randomUUID().slice(0, 8)}`;
  await putGate(t, repo, { required_checks: ['ci'], require_reviewed_release: false });
  return repo;
}

/** Records `ci` for the commit and asks for its decision. */
async function decided(repo: string, commit: string, conclusion: 'success' | 'failure') {
  await checkRun(t, { repo_root: repo, commit_sha: commit, name: 'ci', conclusion, external_id: randomUUID() });
  return decide(t, repo, commit);
}

const get = (path: string, query: Record<string, unknown>, user: TestUser = viewer) =>
  t.request.get(`/api/v1/releases/${path}`).set(user.auth).query(query);

/** Follows the Link header from page to page. */
async function allPages(path: string, query: Record<string, unknown>, key: string, field: string) {
  const pages: string[][] = [];
  let res = await get(path, query);
  for (;;) {
    expect(res.status).toBe(200);
    pages.push(res.body[key].map((item: Record<string, string>) => item[field]));
    const next = /<([^>]+)>; rel="next"/.exec(res.headers.link ?? '')?.[1];
    if (!next) return pages;
    res = await t.request.get(next).set(viewer.auth);
  }
}

describe('GET /releases/commits', () => {
  it('lists each decided commit once by its newest snapshot, newest evaluation first, with the pull request whose head it is', async () => {
    const repo = await freshRepo();
    const [a, b, c] = [sha(randomUUID()), sha(randomUUID()), sha(randomUUID())];
    await decided(repo, a, 'success');
    const db = await decided(repo, b, 'failure');
    const dc = await decided(repo, c, 'success');
    const da = await decided(repo, a, 'failure'); // a new snapshot: a moves to the top, NO_SHIP now
    await t.database.db('github_pull_requests').insert({
      repo_root: repo,
      number: 42,
      head_sha: b,
      head_ref: 'feature',
      base_ref: 'main',
      state: 'open',
      updated_at: new Date(),
    });
    const res = await get('commits', { repo_root: repo.toUpperCase() });
    expect(res.status).toBe(200);
    expect(res.headers.link).toBeUndefined();
    expect(res.body).toEqual({
      repo_root: repo,
      commits: [
        {
          commit_sha: a,
          decision: 'NO_SHIP',
          blocker_codes: ['required_check_failed'],
          snapshot_id: da.snapshot_id,
          snapshot_status: 'candidate',
          release_label: null,
          evaluated_at: expect.stringMatching(/Z$/),
          pull_request_number: null,
          rules: null,
        },
        expect.objectContaining({
          commit_sha: c,
          decision: 'SHIP',
          blocker_codes: [],
          snapshot_id: dc.snapshot_id,
          pull_request_number: null,
        }),
        expect.objectContaining({ commit_sha: b, decision: 'NO_SHIP', snapshot_id: db.snapshot_id, pull_request_number: 42 }),
      ],
    });
  });

  it('names the rules that applied to each pull request head, met or not, as its newest snapshot judged them', async () => {
    const repo = await freshRepo();
    const [judged, none, before] = [sha(randomUUID()), sha(randomUUID()), sha(randomUUID())];
    const outcome = (name: string, met: boolean) => ({
      name,
      met,
      triggered_by: ['infra/main.tf'],
      missing: met ? null : 'needs 2 approvals from acme/sre; has 1: @ana',
      disapproved_by: [],
      approvals: [{ login: 'ana', counted: true, reason: null }],
    });
    // What the decision's judge binds into the snapshot (docs/release-gate.md, "Rules").
    const bind = async (commit: string, rules: unknown[]) => {
      const { snapshot_id } = await decided(repo, commit, 'success');
      await t.database
        .db('snapshots')
        .where({ id: snapshot_id })
        .update({ provenance: t.database.db.raw(`jsonb_set(provenance, '{authorship}', ?::jsonb)`, [JSON.stringify({ rules })]) });
    };
    await bind(judged, [outcome('infra needs SRE', false), outcome('protected_paths', true)]);
    await bind(none, []);
    await decided(repo, before, 'success');
    const res = await get('commits', { repo_root: repo });
    expect(res.status).toBe(200);
    expect(Object.fromEntries(res.body.commits.map((c: { commit_sha: string; rules: unknown }) => [c.commit_sha, c.rules]))).toEqual({
      [judged]: [
        { name: 'infra needs SRE', met: false },
        { name: 'protected_paths', met: true },
      ],
      [none]: [],
      [before]: null,
    });
  });

  it('pages by keyset: every commit exactly once, in order', async () => {
    const repo = await freshRepo();
    const commits = Array.from({ length: 5 }, () => sha(randomUUID()));
    for (const commit of commits) await decided(repo, commit, 'success');
    const pages = await allPages('commits', { repo_root: repo, limit: 2 }, 'commits', 'commit_sha');
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual([...commits].reverse());
  });

  it('is 401 without a key and 422 for a bad repository or cursor', async () => {
    expect((await t.request.get('/api/v1/releases/commits').query({ repo_root: 'acme/x' })).status).toBe(401);
    expect((await get('commits', { repo_root: 'not a repo' })).status).toBe(422);
    expect((await get('commits', {})).status).toBe(422);
    expect((await get('commits', { repo_root: 'acme/x', cursor: 'nope' })).status).toBe(422);
  });
});

describe('GET /releases/history', () => {
  it('counts each commit once a day by its last decision that day, every day of the window listed, and the top blockers', async () => {
    const repo = await freshRepo();
    const [a, b, c, old] = [sha(randomUUID()), sha(randomUUID()), sha(randomUUID()), sha(randomUUID())];
    await decided(repo, a, 'failure');
    await decided(repo, a, 'success'); // NO_SHIP then SHIP today: one SHIP
    await decided(repo, b, 'failure');
    await decided(repo, c, 'failure');
    await decided(repo, old, 'failure');
    await t.database
      .db('snapshots')
      .where({ repo_root: repo, commit_sha: old })
      .update({ seen_at: t.database.db.raw("now() - interval '2 days'") });
    const days = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

    const res = await get('history', { repo_root: repo, days: 3 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      repo_root: repo,
      days: 3,
      per_day: [
        { day: days(2), ship: 0, no_ship: 1 },
        { day: days(1), ship: 0, no_ship: 0 },
        { day: days(0), ship: 1, no_ship: 2 },
      ],
      top_blockers: [{ code: 'required_check_failed', count: 3 }],
    });
    const today = await get('history', { repo_root: repo, days: 1 });
    expect(today.body.per_day).toEqual([{ day: days(0), ship: 1, no_ship: 2 }]);
    expect(today.body.top_blockers).toEqual([{ code: 'required_check_failed', count: 2 }]);
  });

  it('lists 30 days of zeros by default for a repository without decisions', async () => {
    const res = await get('history', { repo_root: `acme/none-${randomUUID().slice(0, 8)}` });
    expect(res.status).toBe(200);
    expect(res.body.per_day).toHaveLength(30);
    expect(res.body.per_day.every((d: { ship: number; no_ship: number }) => d.ship === 0 && d.no_ship === 0)).toBe(true);
    expect(res.body.top_blockers).toEqual([]);
  });

  it('is 422 for a window outside 1-90 days', async () => {
    for (const days of [0, 91, 'x']) {
      const res = await get('history', { repo_root: 'acme/x', days });
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['query', 'days']);
    }
  });
});

describe('GET /releases/evidence', () => {
  it("lists a commit's uploads newest first, with their documents, not check runs nor other commits", async () => {
    const repo = await freshRepo();
    const [commit, other] = [sha(randomUUID()), sha(randomUUID())];
    const first = await upload(t, { repo_root: repo, commit_sha: commit, name: 'sbom' });
    const second = await upload(t, {
      repo_root: repo,
      commit_sha: commit,
      name: 'tests',
      content: fixture('jest-junit-passing.xml').toString('base64'),
    });
    await upload(t, { repo_root: repo, commit_sha: other, name: 'sbom' });
    await checkRun(t, { repo_root: repo, commit_sha: commit, name: 'ci' });

    const res = await get('evidence', { repo_root: repo, commit_sha: commit.toUpperCase() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ evidence: [second, first] });
    expect(res.body.evidence[0].document).toEqual(expect.objectContaining({ format: 'junit', media_type: 'application/xml' }));

    const pages = await allPages('evidence', { repo_root: repo, commit_sha: commit, limit: 1 }, 'evidence', 'id');
    expect(pages).toEqual([[second.id], [first.id]]);
  });

  it('is 422 without a commit', async () => {
    const res = await get('evidence', { repo_root: 'acme/x' });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['query', 'commit_sha']);
  });
});

describe('people by name', () => {
  it("shows every role the promoter's display name beside the id, in the promotion and in the history", async () => {
    const repo = await freshRepo();
    const approver = await t.user('APPROVER');
    const name = `Ada ${randomUUID().slice(0, 6)}`;
    await t.database.db('users').where({ id: approver.id }).update({ name });
    const d = await decided(repo, sha(randomUUID()), 'success');
    const res = await t.request
      .post('/api/v1/releases/promote')
      .set(approver.auth)
      .send({ snapshot_id: d.snapshot_id, target_status: 'attested' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ promoted_by: approver.id, promoted_by_name: name });
    const list = await get('promotions', { repo_root: repo });
    expect(list.body.promotions.map((p: Record<string, string>) => [p.promoted_by, p.promoted_by_name])).toEqual([[approver.id, name]]);
  });
});

describe('gate versions by name', () => {
  it("shows every role the author's display name beside created_by", async () => {
    const author = await t.user('POLICY_AUTHOR');
    const name = `Grace ${randomUUID().slice(0, 6)}`;
    await t.database.db('users').where({ id: author.id }).update({ name });
    const repo = `acme/gate-${randomUUID().slice(0, 8)}`;
    const put = await putGate(t, repo, { required_checks: ['ci'] }, author);
    expect(put).toMatchObject({ created_by: author.id, created_by_name: name });
    const read = await t.request.get(`/api/v1/releases/gates/${repo}`).set(viewer.auth);
    expect(read.body).toMatchObject({ version: 1, created_by_name: name });
    const versions = await t.request.get(`/api/v1/releases/gates/${repo}/versions`).set(viewer.auth);
    expect(versions.body.versions.map((v: Record<string, unknown>) => v.created_by_name)).toEqual([name]);
    const none = await t.request.get(`/api/v1/releases/gates/acme/none-${randomUUID().slice(0, 8)}`).set(viewer.auth);
    expect(none.body).toMatchObject({ version: 0, created_by: null, created_by_name: null });
  });
});
