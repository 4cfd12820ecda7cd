import { decide, insertExecution } from '../support/release-api.js';
import { codes, useAgentPullRequests } from './support/agent-pull-requests.js';

const { stack, nextSha, openPullRequest, buildPassed, review } = useAgentPullRequests(91);

describe('the default gate on pull requests', () => {
  it('a person’s pull request with build green ships on its checks (no workflow needed)', async () => {
    const repo = 'acme/people';
    stack.repository(repo);
    const head = nextSha();
    await openPullRequest(repo, 1, head);
    await buildPassed(repo, head);
    expect(stack.gh.app.checkRunsOn(repo, head)[0].conclusion).toBe('success');
    const d = await decide(stack.t, repo, head);
    expect(d).toMatchObject({ decision: 'SHIP', authorship: { status: 'read', pull_request: 1, agent_authored: false } });
  });

  it('an agent’s pull request with build green is NO_SHIP: its commit is ungoverned and no independent person approved', async () => {
    const repo = 'acme/agents';
    stack.repository(repo);
    const head = nextSha();
    await openPullRequest(repo, 2, head, { agent: true });
    await buildPassed(repo, head);
    const [run] = stack.gh.app.checkRunsOn(repo, head);
    expect(run.conclusion).toBe('failure');
    const d = await decide(stack.t, repo, head);
    expect(codes(d)).toEqual(['agent_change_ungoverned', 'human_approval_missing']);
    expect(d.blockers.find((b: { code: string }) => b.code === 'agent_change_ungoverned')).toMatchObject({
      component: `commit:${head}`,
      reason: expect.stringContaining('Copilot'),
      waitable: false,
    });
    expect(d.blockers.find((b: { code: string }) => b.code === 'human_approval_missing').reason).toContain('has 0, so 1 more');
    expect(d.authorship).toMatchObject({ agent_authored: true, agents: ['Copilot'], commits: [{ sha: head, agent_authored: true }] });
  });
});

describe('approvals of an agent’s pull request, from real pull_request_review deliveries', () => {
  const old = nextSha();
  let repos = 0;

  /** Pull request #3 by the agent, governed and with build green, in a repository of the test's own (so tests run in any order). */
  async function agentPullRequest() {
    const repo = `acme/reviews-${++repos}`;
    const head = nextSha();
    stack.repository(repo);
    await openPullRequest(repo, 3, head, { agent: true });
    await insertExecution(stack.t.database.db, { owner_id: stack.t.admin.id, repo_root: repo, commit_sha: head });
    await buildPassed(repo, head);
    const approvals = async () => (await decide(stack.t, repo, head)).authorship.approvals;
    return { repo, head, approvals };
  }

  it('the co-author who asked the agent approves: not counted, and the decision says why', async () => {
    const { repo, head, approvals } = await agentPullRequest();
    await review(repo, 3, { user: 'alice', state: 'APPROVED', commit_id: head });
    expect(await approvals()).toEqual([
      {
        login: 'alice',
        state: 'APPROVED',
        commit_sha: head,
        counted: false,
        reason: 'co_author',
        reason_text: 'a co-author of its commits',
      },
    ]);
    expect(codes(await decide(stack.t, repo, head))).toEqual(['human_approval_missing']);
  });

  it('an independent writer approves the head: counted, and the pull request ships', async () => {
    const { repo, head, approvals } = await agentPullRequest();
    await review(repo, 3, { user: 'carol', state: 'APPROVED', commit_id: head });
    expect((await approvals()).find((a: { login: string }) => a.login === 'carol')).toMatchObject({ counted: true, reason: null });
    expect((await decide(stack.t, repo, head)).decision).toBe('SHIP');
    expect(stack.gh.app.checkRunsOn(repo, head)[0].conclusion).toBe('success');
  });

  it('an approval of an older head, a reader’s and a dismissed one are not counted', async () => {
    const { repo, head, approvals } = await agentPullRequest();
    await review(repo, 3, { user: 'dave', state: 'APPROVED', commit_id: old });
    await review(repo, 3, { user: 'erin', state: 'APPROVED', commit_id: head });
    await review(repo, 3, { user: 'frank', state: 'DISMISSED', commit_id: head }, 'dismissed');
    const byLogin = Object.fromEntries((await approvals()).map((a: { login: string; reason: string }) => [a.login, a.reason]));
    expect(byLogin).toMatchObject({ dave: 'stale', erin: 'no_write_permission', frank: 'dismissed' });
  });

  it('the PR comment and the check run show the authorship section: the agent’s commit, each approval and why', async () => {
    const { repo, head } = await agentPullRequest();
    await review(repo, 3, { user: 'alice', state: 'APPROVED', commit_id: head });
    await review(repo, 3, { user: 'carol', state: 'APPROVED', commit_id: head });
    await review(repo, 3, { user: 'dave', state: 'APPROVED', commit_id: old });
    const comment = stack.gh.app.commentsOn(repo, 3).find((c) => c.body.includes('shipgate:release-gate'))!;
    const [run] = stack.gh.app.checkRunsOn(repo, head);
    for (const text of [comment.body, run.output.summary]) {
      expect(text).toContain('**Authorship**');
      expect(text).toContain('Pull request #3 was made with Copilot: 1 of its 1 commits by an agent.');
      // Identities and logins are quoted (docs/github-app.md, "Quoting outside text"): the reviewers are named, not notified.
      expect(text).toContain(
        `- \`${head.slice(0, 12)}\`: author Copilot, committer web\\-flow, co\\-author Alice \\<1234\\+alice@\u200Busers\\.noreply\\.github\\.com\\>`,
      );
      expect(text).toContain(`- @\u200Balice approved \`${head.slice(0, 12)}\`: not counted (a co-author of its commits)`);
      expect(text).toContain(`- @\u200Bcarol approved \`${head.slice(0, 12)}\`: counted`);
      expect(text).toContain(`- @\u200Bdave approved \`${old.slice(0, 12)}\`: not counted (approved an older head)`);
    }
  });

  it('the same reviewer then requests changes: the approval is withdrawn and the pull request is blocked again', async () => {
    const { repo, head, approvals } = await agentPullRequest();
    await review(repo, 3, { user: 'carol', state: 'APPROVED', commit_id: head });
    expect((await decide(stack.t, repo, head)).decision).toBe('SHIP');
    await review(repo, 3, { user: 'carol', state: 'CHANGES_REQUESTED', commit_id: head });
    expect((await approvals()).find((a: { login: string }) => a.login === 'carol')).toMatchObject({
      state: 'CHANGES_REQUESTED',
      counted: false,
      reason: 'withdrawn',
    });
    const d = await decide(stack.t, repo, head);
    expect(codes(d)).toEqual(['human_approval_missing']);
    expect(stack.gh.app.checkRunsOn(repo, head)[0].conclusion).toBe('failure');
  });
});
