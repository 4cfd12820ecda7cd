import { jest } from '@jest/globals';
import pg from 'pg';
import { COMMIT_STATE } from '../../db/stores/release/commit-state.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// SHIPGATE_DECISION_CACHE_COMMITS sizes the decision's cache (docs/operations.md, "The
// decision's cache"): a server keeps the state of that many commits, the ones read last, and
// reads any other commit's state from the database again.
const REPO = 'acme/cache-size';
const sha = (n: number) => String(n).repeat(40);

/** Decides a commit over the API; says whether its whole state was read from the database. */
async function decide(t: TestApp, commit: number): Promise<boolean> {
  const sent = jest.spyOn(pg.Client.prototype, 'query');
  try {
    const res = await t.request
      .get('/api/v1/releases/decision')
      .query({ repo_root: REPO, commit_sha: sha(commit) })
      .set(t.admin.auth);
    expect(res.status).toBe(200);
    return sent.mock.calls.some(([config]) => (config as { name?: string }).name === COMMIT_STATE.name);
  } finally {
    sent.mockRestore();
  }
}

/** Decides commits 1, 2, 3 until each is served from the cache (the first decision's snapshot changes the commit once). */
async function warm(t: TestApp): Promise<void> {
  for (const commit of [1, 2, 3]) {
    await decide(t, commit);
    await decide(t, commit);
  }
}

describe('SHIPGATE_DECISION_CACHE_COMMITS', () => {
  let app: TestApp | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('keeps the state of that many commits, the ones read last', async () => {
    app = await createTestApp({ SHIPGATE_DECISION_CACHE_COMMITS: '2' });
    await warm(app);
    expect(await decide(app, 3)).toBe(false);
    expect(await decide(app, 2)).toBe(false);
    expect(await decide(app, 1)).toBe(true); // the third commit pushed it out
    expect(await decide(app, 1)).toBe(false);
  });

  it('keeps 2,000 commits when unset', async () => {
    app = await createTestApp();
    expect(app.deps.config.decisionCacheCommits).toBe(2000);
    await warm(app);
    expect(await decide(app, 1)).toBe(false);
  });

  it('with 0 keeps nothing: every decision reads the commit state', async () => {
    app = await createTestApp({ SHIPGATE_DECISION_CACHE_COMMITS: '0' });
    await warm(app);
    expect(await decide(app, 3)).toBe(true);
    expect(await decide(app, 3)).toBe(true);
  });
});
