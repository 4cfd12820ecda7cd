import { pullRequestPayload } from '../support/github-deliveries.js';
import { decide, insertExecution, promote, upload } from '../support/release-api.js';
import { agentCommit, alice, codes, useAgentPullRequests, webFlow } from './support/agent-pull-requests.js';

const { stack, send, nextSha, openPullRequest, buildPassed, review } = useAgentPullRequests(92);

describe('governed work and attestations of an agent’s pull request', () => {
  it('governed work bound to the head clears that commit only; an earlier agent commit without it still blocks', async () => {
    const repo = 'acme/governed';
    stack.repository(repo);
    const first = nextSha();
    const head = nextSha();
    await openPullRequest(repo, 4, head, { agent: true, commits: [agentCommit(first), agentCommit(head)] });
    await buildPassed(repo, head);
    await review(repo, 4, { user: 'carol', state: 'APPROVED', commit_id: head });
    await insertExecution(stack.t.database.db, { owner_id: stack.t.admin.id, repo_root: repo, commit_sha: head });
    const d = await decide(stack.t, repo, head);
    expect(d.blockers.map((b: { code: string; component: string }) => [b.code, b.component])).toEqual([
      ['agent_change_ungoverned', `commit:${first}`],
    ]);
    // Governed work on the earlier commit reaches the head's decision (its cached state is counted stale).
    await insertExecution(stack.t.database.db, { owner_id: stack.t.admin.id, repo_root: repo, commit_sha: first });
    expect((await decide(stack.t, repo, head)).decision).toBe('SHIP');
  });

  it('the attestation of the promoted snapshot lists the counted approvers; a new approval is a new snapshot', async () => {
    const repo = 'acme/attested';
    stack.repository(repo);
    const head = nextSha();
    await openPullRequest(repo, 5, head, { agent: true });
    await insertExecution(stack.t.database.db, { owner_id: stack.t.admin.id, repo_root: repo, commit_sha: head });
    await buildPassed(repo, head);
    await review(repo, 5, { user: 'carol', state: 'APPROVED', commit_id: head });
    const shipped = await decide(stack.t, repo, head);
    expect(shipped.decision).toBe('SHIP');
    const res = await promote(stack.t, { snapshot_id: shipped.snapshot_id, target_status: 'attested' });
    expect(res.status).toBe(201);
    const statement = JSON.parse(Buffer.from(res.body.attestation.payload, 'base64').toString('utf8'));
    expect(statement.predicate['https://shipgate.dev/attestations/promotion/v1']).toMatchObject({
      snapshot_id: shipped.snapshot_id,
      counted_approvals: [{ login: 'carol', commit_sha: head }],
    });

    await review(repo, 5, { user: 'grace', state: 'APPROVED', commit_id: head });
    const again = await decide(stack.t, repo, head);
    expect(again.snapshot_id).not.toBe(shipped.snapshot_id);
    expect(again.authorship.approvals.filter((a: { counted: boolean }) => a.counted).map((a: { login: string }) => a.login)).toEqual([
      'carol',
      'grace',
    ]);
  });
});

describe('authorship that cannot be known', () => {
  it('over 250 commits: never SHIP, and the blocker says why', async () => {
    const repo = 'acme/huge';
    stack.repository(repo);
    const head = nextSha();
    await openPullRequest(repo, 6, head);
    stack.gh.app.pullRequest(repo, 6)!.commit_count = 300;
    await send('pull_request', pullRequestPayload('synchronize', { number: 6, sha: head }, repo));
    await buildPassed(repo, head);
    const d = await decide(stack.t, repo, head);
    expect(d.decision).toBe('NO_SHIP');
    expect(d.blockers).toEqual([
      expect.objectContaining({ code: 'agent_provenance_unknown', component: 'authorship:commit_limit', waitable: false }),
    ]);
    expect(d.blockers[0].reason).toContain('300 commits');
  });

  it('GitHub answering 404 or 5xx for the commits: never SHIP, and the blocker says what GitHub answered', async () => {
    const repo = 'acme/unreadable';
    stack.repository(repo);
    const missing = nextSha();
    stack.gh.app.failNext('GET', /\/pulls\/7\/commits$/, { status: 404, body: { message: 'Not Found' } });
    await openPullRequest(repo, 7, missing);
    await buildPassed(repo, missing);
    const gone = await decide(stack.t, repo, missing);
    expect(gone.blockers).toEqual([expect.objectContaining({ code: 'agent_provenance_unknown', component: 'authorship:unreadable' })]);
    expect(gone.blockers[0].reason).toContain('GitHub answered 404');

    const failing = nextSha();
    stack.gh.app.failNext(
      'GET',
      /\/pulls\/8\/commits$/,
      { status: 502, body: { message: 'Server Error' }, headers: { 'retry-after': '1' } },
      10,
    );
    await openPullRequest(repo, 8, failing);
    await buildPassed(repo, failing);
    const broken = await decide(stack.t, repo, failing);
    expect(broken.decision).toBe('NO_SHIP');
    expect(broken.blockers[0]).toMatchObject({ code: 'agent_provenance_unknown', component: 'authorship:unreadable' });
    expect(broken.blockers[0].reason).toContain('502');
  });

  it('evidence for a commit no pull request names still ships on checks and evidence; its authorship is unknown', async () => {
    const repo = 'acme/direct';
    stack.repository(repo);
    const commit = nextSha();
    await buildPassed(repo, commit);
    await upload(stack.t, { repo_root: repo, commit_sha: commit, kind: 'sbom', name: 'sbom' });
    const d = await decide(stack.t, repo, commit);
    expect(d).toMatchObject({ decision: 'SHIP', authorship: { status: 'no_pull_request', agent_authored: null } });
  });
});

describe('who is an agent, from the gate file', () => {
  it('a person’s commit whose Co-authored-by trailer names a configured agent e-mail makes the pull request an agent’s', async () => {
    const repo = 'acme/trailers';
    stack.repository(repo, 'required_checks: [build]\nagents:\n  coauthor_emails: [helper@agents.example]\n');
    const head = nextSha();
    const commit = { sha: head, message: 'Tidy\n\nCo-authored-by: Helper <helper@agents.example>', author: alice, committer: alice };
    await openPullRequest(repo, 9, head, { commits: [commit] });
    await buildPassed(repo, head);
    const d = await decide(stack.t, repo, head);
    expect(d.authorship).toMatchObject({ agent_authored: true, agents: ['helper@agents.example'] });
    expect(codes(d)).toEqual(['agent_change_ungoverned', 'human_approval_missing']);
  });

  it('dependabot[bot] is not an agent by default; agents.accounts makes it one', async () => {
    const dependabot = {
      name: 'dependabot[bot]',
      email: '49699333+dependabot[bot]@users.noreply.github.com',
      login: 'dependabot[bot]',
      type: 'Bot' as const,
    };
    const bump = (sha: string) => [{ sha, message: 'Bump lodash', author: dependabot, committer: webFlow }];
    const plain = 'acme/deps';
    stack.repository(plain);
    const head = nextSha();
    await openPullRequest(plain, 10, head, { commits: bump(head) });
    await buildPassed(plain, head);
    expect(await decide(stack.t, plain, head)).toMatchObject({ decision: 'SHIP', authorship: { agent_authored: false } });

    const strict = 'acme/deps-strict';
    stack.repository(strict, "required_checks: [build]\nagents:\n  accounts: ['dependabot[bot]']\n");
    const other = nextSha();
    await openPullRequest(strict, 11, other, { commits: bump(other) });
    await buildPassed(strict, other);
    const d = await decide(stack.t, strict, other);
    expect(d.authorship).toMatchObject({ agent_authored: true, agents: ['dependabot[bot]'] });
    expect(d.decision).toBe('NO_SHIP');
  });
});
