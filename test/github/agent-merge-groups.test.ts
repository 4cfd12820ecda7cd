import { deploymentRulePayload } from '../support/deployment-deliveries.js';
import { examplePayload } from '../support/github-deliveries.js';
import { decide, insertExecution } from '../support/release-api.js';
import { agentCommit, codes, useAgentPullRequests } from './support/agent-pull-requests.js';

const { stack, send, nextSha, openPullRequest, buildPassed, review } = useAgentPullRequests(93);

/** A real `merge_group` checks_requested delivery for pull request `number`, the group's commit `group`. */
async function queue(repo: string, number: number, group: string) {
  const payload = examplePayload('merge_group', 'checks_requested', repo, 93);
  const headRef = `refs/heads/gh-readonly-queue/main/pr-${number}-${'e'.repeat(40)}`;
  payload.merge_group = { ...payload.merge_group, head_sha: group, head_ref: headRef, base_ref: 'refs/heads/main' };
  expect(await send('merge_group', payload)).toEqual({ status: 'queued' });
}

let repos = 0;

/** An agent's pull request `number` with build green on its head, queued: the group commit's build green too. */
async function queuedAgentPullRequest(number: number, options: { governed: boolean }) {
  const repo = `acme/queue-agents-${++repos}`;
  stack.repository(repo);
  const head = nextSha();
  const group = nextSha();
  await openPullRequest(repo, number, head, { agent: true });
  if (options.governed) await insertExecution(stack.t.database.db, { owner_id: stack.t.admin.id, repo_root: repo, commit_sha: head });
  await buildPassed(repo, head);
  await queue(repo, number, group);
  await buildPassed(repo, group);
  return { repo, head, group };
}

describe('a merge group carries the agent rules of its pull request', () => {
  it('an agent’s unapproved pull request: the group commit’s decision is NO_SHIP for want of an approval, and names the pull request', async () => {
    const { repo, head, group } = await queuedAgentPullRequest(7, { governed: true });
    const d = await decide(stack.t, repo, group);
    expect(codes(d)).toEqual(['human_approval_missing']);
    expect(d.blockers[0]).toMatchObject({ component: 'pull_request:7', reason: expect.stringContaining('has 0, so 1 more') });
    expect(d.authorship).toMatchObject({ status: 'read', pull_request: 7, agent_authored: true, commits: [{ sha: head }] });
    // The group's check run reads the same authorship: it agrees.
    const [run] = stack.gh.app.checkRunsOn(repo, group);
    expect(run.conclusion).toBe('failure');
    expect(run.output.summary).toContain('human_approval_missing');

    expect((await decide(stack.t, repo, group)).snapshot_id).toBe(d.snapshot_id);
    // An independent approval of the pull request's head clears it, for the API and the check run alike.
    await review(repo, 7, { user: 'carol', state: 'APPROVED', commit_id: head });
    const approved = await decide(stack.t, repo, group);
    expect(approved.decision).toBe('SHIP');
    expect(approved.authorship.approvals).toEqual([
      { login: 'carol', state: 'APPROVED', commit_sha: head, counted: true, reason: null, reason_text: null },
    ]);
    // The snapshot binds the pull request's authorship; the answer serves it once, as `authorship`.
    const [bound] = await stack.t.database.db('snapshots').where({ id: approved.snapshot_id }).select('provenance');
    expect(bound.provenance.authorship).toMatchObject({ pull_request: 7 });
    expect(approved.provenance.authorship).toBeUndefined();
    expect(stack.gh.app.checkRunsOn(repo, group)[0].conclusion).toBe('success');
  });

  it('the deployment rule judges the group commit (what the base branch points at once merged) by the same rules', async () => {
    const { repo, group } = await queuedAgentPullRequest(11, { governed: true });
    await send('deployment_protection_rule', deploymentRulePayload(repo, { sha: group, environment: 'staging', runId: 93001 }, 93));
    const [review] = stack.gh.deployments.reviewsOf(repo, 93001);
    expect(review.state).toBe('rejected');
    expect(review.comment).toContain('human_approval_missing');
  });

  it('governed work on the pull request’s commits counts for the group commit (its cached state is counted stale)', async () => {
    const { repo, head, group } = await queuedAgentPullRequest(8, { governed: false });
    await review(repo, 8, { user: 'carol', state: 'APPROVED', commit_id: head });
    const d = await decide(stack.t, repo, group);
    expect(d.blockers.map((b: { code: string; component: string }) => [b.code, b.component])).toEqual([
      ['agent_change_ungoverned', `commit:${head}`],
    ]);
    // Asked again with nothing changed: the same snapshot, and the group commit's state is now cached.
    expect((await decide(stack.t, repo, group)).snapshot_id).toBe(d.snapshot_id);
    await insertExecution(stack.t.database.db, { owner_id: stack.t.admin.id, repo_root: repo, commit_sha: head });
    expect((await decide(stack.t, repo, group)).decision).toBe('SHIP');
  });

  it('a pull request the App never saw opened is read when its group arrives', async () => {
    const repo = `acme/queue-agents-${++repos}`;
    stack.repository(repo);
    const head = nextSha();
    const group = nextSha();
    stack.gh.app.setPullRequest(repo, {
      number: 9,
      head_sha: head,
      head_ref: 'copilot/fix-9',
      base_ref: 'main',
      state: 'open',
      author: { login: 'Copilot', type: 'Bot' },
      assignees: ['alice'],
      commits: [agentCommit(head)],
    });
    await queue(repo, 9, group);
    await buildPassed(repo, group);
    const d = await decide(stack.t, repo, group);
    expect(d.authorship).toMatchObject({ status: 'read', pull_request: 9, agent_authored: true });
    expect(codes(d)).toEqual(['agent_change_ungoverned', 'human_approval_missing']);
  });

  it('a person’s pull request: the group commit ships on its checks, its authorship known', async () => {
    const repo = `acme/queue-people-${++repos}`;
    stack.repository(repo);
    const head = nextSha();
    const group = nextSha();
    await openPullRequest(repo, 10, head);
    await buildPassed(repo, head);
    await queue(repo, 10, group);
    await buildPassed(repo, group);
    const d = await decide(stack.t, repo, group);
    expect(d).toMatchObject({ decision: 'SHIP', authorship: { status: 'read', pull_request: 10, agent_authored: false } });
    expect(stack.gh.app.checkRunsOn(repo, group)[0].conclusion).toBe('success');
  });
});
