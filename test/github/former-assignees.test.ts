import { pullRequestPayload } from '../support/github-deliveries.js';
import { decide, insertExecution } from '../support/release-api.js';
import type { FakePullCommit } from '../fakes/fake-github-people-routes.js';
import { codes, copilot, useAgentPullRequests, webFlow } from './support/agent-pull-requests.js';

// docs/release-gate.md, "Agents on pull requests": the person who asked the agent (its assignee) cannot give the
// independent approval, and stays so once unassigned, as on GitHub: whoever shipgate ever saw assigned stays excluded.
const { stack, send, nextSha, openPullRequest, buildPassed, review } = useAgentPullRequests(318);

/** An agent commit with no co-author trailer: alice is named only as the pull request's assignee. */
const bareAgentCommit = (sha: string): FakePullCommit => ({ sha, message: 'Change CI', author: copilot, committer: webFlow });

let repos = 0;

/** Agent pull request #8 assigned to alice, governed, build green, approved by alice; then she is unassigned on GitHub. */
async function approvedThenUnassigned() {
  const repo = `acme/former-assignees-${++repos}`;
  const head = nextSha();
  stack.repository(repo);
  await openPullRequest(repo, 8, head, { agent: true, commits: [bareAgentCommit(head)] });
  await buildPassed(repo, head);
  await insertExecution(stack.t.database.db, { owner_id: stack.t.admin.id, repo_root: repo, commit_sha: head });
  await review(repo, 8, { user: 'alice', state: 'APPROVED', commit_id: head });
  const before = await decide(stack.t, repo, head);
  expect(before.authorship.approvals).toMatchObject([{ login: 'alice', counted: false, reason: 'assignee' }]);
  expect(codes(before)).toEqual(['human_approval_missing']);
  stack.gh.app.pullRequest(repo, 8)!.assignees = [];
  return { repo, head };
}

/** A real `pull_request` delivery by Copilot's pull request #8 at `sha`, with no assignees. */
async function deliver(repo: string, action: 'edited' | 'synchronize', sha: string) {
  // GitHub's examples have no `edited`: the `opened` payload with its action changed is what GitHub sends.
  const payload = pullRequestPayload(action === 'edited' ? 'opened' : action, { number: 8, sha, ref: 'copilot/fix-8' }, repo);
  payload.action = action;
  payload.pull_request.user = { ...payload.pull_request.user, login: 'Copilot', type: 'Bot' };
  payload.pull_request.assignees = [];
  await send('pull_request', payload);
}

describe('an agent pull request’s former assignee', () => {
  it('is unassigned and the pull request edited: the re-read still refuses her approval as an assignee’s', async () => {
    const { repo, head } = await approvedThenUnassigned();
    await deliver(repo, 'edited', head);
    const after = await decide(stack.t, repo, head);
    expect(after.authorship.approvals).toMatchObject([
      { login: 'alice', counted: false, reason: 'assignee', reason_text: expect.any(String) },
    ]);
    expect(after.decision).toBe('NO_SHIP');
    expect(codes(after)).toEqual(['human_approval_missing']);
  });

  it('is unassigned, the agent pushes a new head and she approves it: still not counted; an independent writer’s approval is', async () => {
    const { repo } = await approvedThenUnassigned();
    const next = nextSha();
    const pr = stack.gh.app.pullRequest(repo, 8)!;
    pr.head_sha = next;
    pr.commits = [...(pr.commits ?? []), bareAgentCommit(next)];
    await deliver(repo, 'synchronize', next);
    await buildPassed(repo, next);
    await insertExecution(stack.t.database.db, { owner_id: stack.t.admin.id, repo_root: repo, commit_sha: next });
    await review(repo, 8, { user: 'alice', state: 'APPROVED', commit_id: next });
    const refused = await decide(stack.t, repo, next);
    expect(refused.authorship.approvals).toMatchObject([{ login: 'alice', counted: false, reason: 'assignee' }]);
    expect(refused.decision).toBe('NO_SHIP');

    await review(repo, 8, { user: 'carol', state: 'APPROVED', commit_id: next });
    expect((await decide(stack.t, repo, next)).decision).toBe('SHIP');
  });
});
