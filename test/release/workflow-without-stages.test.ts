import { insertWorkflow } from '../accounts/support/repo-bound-rows.js';
import { decide, sha } from '../support/release-api.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// A workflow bound to a commit with no stage rows (the API refuses one, a row written otherwise has none) made the
// decision's statement answer `stages: null`, and the decision a 500 for everyone polling that commit.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => t?.close());

it('a bound workflow without stages is judged, as any unfinished workflow: NO_SHIP naming it', async () => {
  const commit = sha('no-stages');
  const workflow = await insertWorkflow(t.database.db, { owner_id: t.admin.id, repo_root: 'acme/api', commit_sha: commit });
  const decision = await decide(t, 'acme/api', commit);
  expect(decision.decision).toBe('NO_SHIP');
  expect(decision.blockers).toContainEqual(expect.objectContaining({ code: 'workflow_incomplete', component: `workflow:${workflow}` }));
});
