import { examplePayload, checkRunPayload, pullRequestPayload } from '../support/github-deliveries.js';
import { decide, insertExecution, promote, upload } from '../support/release-api.js';
import type { FakePullCommit, FakeReview } from '../fakes/fake-github-people-routes.js';
import { useAppWithFakeGitHub } from './support/app-with-fake-github.js';

// The default gate but for the required check: agent rules on, no reviewed release.
const stack = useAppWithFakeGitHub({ secret: 'agent-secret', installationId: 91, gate: 'required_checks: [build]\n' });
const { send } = stack;
let runIds = 61000;
let shas = 0;
const nextSha = () => (++shas).toString(16).padStart(40, 'c');

const copilot = { name: 'Copilot', email: '198982749+Copilot@users.noreply.github.com', login: 'Copilot', type: 'Bot' as const };
const webFlow = { name: 'GitHub', email: 'noreply@github.com', login: 'web-flow', type: 'User' as const };
const alice = { name: 'Alice', email: 'alice@corp.example', login: 'alice', type: 'User' as const };

/** A commit by Copilot's coding agent, naming alice (who asked for it) as co-author by her GitHub noreply address. */
const agentCommit = (sha: string): FakePullCommit => ({
  sha,
  message: 'Fix the parser\n\nCo-authored-by: Alice <1234+alice@users.noreply.github.com>',
  author: copilot,
  committer: webFlow,
});

/** Opens pull request `number` on GitHub and delivers `pull_request.opened` (a real payload). */
async function openPullRequest(repo: string, number: number, head: string, options: { agent?: boolean; commits?: FakePullCommit[] } = {}) {
  const author = options.agent ? { login: 'Copilot', type: 'Bot' as const } : { login: 'alice', type: 'User' as const };
  stack.gh.app.setPullRequest(repo, {
    number,
    head_sha: head,
    head_ref: `copilot/fix-${number}`,
    base_ref: 'main',
    state: 'open',
    author,
    assignees: options.agent ? ['alice'] : [],
    commits: options.commits ?? (options.agent ? [agentCommit(head)] : [{ sha: head, message: 'Fix', author: alice, committer: alice }]),
  });
  const payload = pullRequestPayload('opened', { number, sha: head, ref: `copilot/fix-${number}` }, repo);
  payload.pull_request.user = { ...payload.pull_request.user, login: author.login, type: author.type };
  await send('pull_request', payload);
}

async function buildPassed(repo: string, sha: string) {
  await send('check_run', checkRunPayload('completed', { id: runIds++, name: 'build', sha }, repo));
}

/** A review on GitHub, announced by a real `pull_request_review` delivery. */
async function review(repo: string, number: number, r: FakeReview, action: 'submitted' | 'dismissed' = 'submitted') {
  const pr = stack.gh.app.pullRequest(repo, number)!;
  pr.reviews = [...(pr.reviews ?? []), r];
  const payload = examplePayload('pull_request_review', action, repo, 91);
  payload.pull_request = { ...payload.pull_request, number, head: { ...payload.pull_request.head, sha: pr.head_sha } };
  payload.review = {
    ...payload.review,
    user: { ...payload.review.user, login: r.user },
    state: r.state.toLowerCase(),
    commit_id: r.commit_id,
  };
  expect(await send('pull_request_review', payload)).toEqual({ status: 'queued' });
}

const codes = (d: { blockers: { code: string }[] }) => d.blockers.map((b) => b.code).sort();

beforeAll(() => {
  for (const [login, permission] of [
    ['alice', 'write'],
    ['carol', 'write'],
    ['dave', 'admin'],
    ['erin', 'read'],
    ['frank', 'write'],
    ['grace', 'admin'],
  ])
    stack.gh.app.permissions.set(login, permission);
});

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
    expect(await approvals()).toEqual([{ login: 'alice', state: 'APPROVED', commit_sha: head, counted: false, reason: 'co_author' }]);
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
      expect(text).toContain(
        `- \`${head.slice(0, 12)}\`: author Copilot, committer web-flow, co-author Alice <1234+alice@users.noreply.github.com>`,
      );
      expect(text).toContain(`- @alice approved \`${head.slice(0, 12)}\`: not counted (a co-author of its commits)`);
      expect(text).toContain(`- @carol approved \`${head.slice(0, 12)}\`: counted`);
      expect(text).toContain(`- @dave approved \`${old.slice(0, 12)}\`: not counted (approved an older head)`);
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
