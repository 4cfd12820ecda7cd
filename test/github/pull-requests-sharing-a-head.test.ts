import { pullRequestPayload } from '../support/github-deliveries.js';
import { decide, insertExecution } from '../support/release-api.js';
import type { FakePullCommit } from '../fakes/fake-github-people-routes.js';
import { alice, codes, copilot, useAgentPullRequests, webFlow } from './support/agent-pull-requests.js';

/**
 * One pull request per head (docs/release-gate.md, "One pull request per head"): authorship is stored per head
 * commit, so a decoy pull request opened with the same head (into a branch that already holds the change, or changing
 * only README) must not decide the commit: while both are open it is NO_SHIP, and once the decoy closes the pull
 * request left open decides again.
 */
const INSTALLATION = 359;
const { stack, send, nextSha, openPullRequest, buildPassed, review } = useAgentPullRequests(INSTALLATION);

const SRE_GATE = `required_checks: [build]
rules:
  - name: infra needs SRE
    if: {paths: ["infra/**"]}
    require: {approvals: 1, approvers: {teams: [acme/sre]}}
`;
const GATE_CHECK = 'shipgate / release gate';

/** An agent commit with no co-author trailer (alice asked for it: she is the pull request's assignee). */
const bareAgentCommit = (sha: string): FakePullCommit => ({ sha, message: 'Change CI', author: copilot, committer: webFlow });

beforeAll(() => {
  for (const login of ['ana', 'sam']) stack.gh.app.permissions.set(login, 'write');
  stack.gh.app.team('acme/sre', ['ana', 'sam']);
});

let repos = 0;
function repository(gate?: string): string {
  const repo = `acme/shared-head-${++repos}`;
  stack.repository(repo, gate);
  return repo;
}

interface Decoy {
  base: string;
  files: string[];
  author: { login: string; type: 'User' | 'Bot' };
  commits: FakePullCommit[];
}

/** A second pull request on GitHub whose head is the same commit, announced by a real `pull_request.opened`. */
async function openDecoy(repo: string, number: number, head: string, o: Decoy) {
  stack.gh.app.setPullRequest(repo, {
    number,
    head_sha: head,
    head_ref: `decoy-${number}`,
    base_ref: o.base,
    state: 'open',
    author: o.author,
    assignees: [],
    commits: o.commits,
    files: o.files.map((filename) => ({ filename })),
  });
  const payload = pullRequestPayload('opened', { number, sha: head, ref: `decoy-${number}`, base: o.base }, repo);
  payload.pull_request.user = { ...payload.pull_request.user, login: o.author.login, type: o.author.type };
  await send('pull_request', payload);
}

async function closeDecoy(repo: string, number: number, head: string, base: string) {
  stack.gh.app.pullRequest(repo, number)!.state = 'closed';
  await send('pull_request', pullRequestPayload('closed', { number, sha: head, ref: `decoy-${number}`, base }, repo));
}

/** The release gate's latest check run on the commit. */
const gateRun = (repo: string, sha: string) =>
  stack.gh.app
    .checkRunsOn(repo, sha)
    .filter((r) => r.name === GATE_CHECK)
    .at(-1);

/** Pull request `number` touching `files`, its facts read again (a real `pull_request.synchronize`). */
async function changeFiles(repo: string, number: number, head: string, files: string[]) {
  const pr = stack.gh.app.pullRequest(repo, number)!;
  pr.files = files.map((filename) => ({ filename }));
  await send('pull_request', pullRequestPayload('synchronize', { number, sha: head, ref: pr.head_ref }, repo));
}

describe('a commit that is the head of more than one open pull request', () => {
  it('a decoy changing only README does not clear the SRE rule of the pull request touching infra/; closing it restores that verdict', async () => {
    const repo = repository(SRE_GATE);
    const head = nextSha();
    await openPullRequest(repo, 1, head);
    await changeFiles(repo, 1, head, ['infra/main.tf']);
    await buildPassed(repo, head);
    const before = await decide(stack.t, repo, head);
    expect(before).toMatchObject({ decision: 'NO_SHIP', authorship: { pull_request: 1 } });
    expect(codes(before)).toEqual(['rule_not_met']);

    await openDecoy(repo, 2, head, {
      base: 'decoy-base',
      files: ['README.md'],
      author: { login: 'alice', type: 'User' },
      commits: [{ sha: head, message: 'Fix', author: alice, committer: alice }],
    });
    const ambiguous = await decide(stack.t, repo, head);
    expect(ambiguous.decision).toBe('NO_SHIP');
    expect(codes(ambiguous)).toContain('pull_request_ambiguous');
    expect(ambiguous.blockers.find((b: { code: string }) => b.code === 'pull_request_ambiguous')).toMatchObject({
      component: 'pull_requests:1,2',
      reason: expect.stringContaining('#1, #2'),
      remediation_suggestion: expect.stringContaining('Close all but one of #1, #2'),
      waitable: false,
    });
    // Neither pull request's facts decide it: not the decoy's README.
    expect(ambiguous.authorship).toMatchObject({ status: 'unreadable' });
    expect(gateRun(repo, head)?.conclusion).toBe('failure');

    await closeDecoy(repo, 2, head, 'decoy-base');
    const after = await decide(stack.t, repo, head);
    expect(after).toMatchObject({ decision: 'NO_SHIP', authorship: { status: 'read', pull_request: 1 } });
    expect(codes(after)).toEqual(['rule_not_met']);
    expect(gateRun(repo, head)?.conclusion).toBe('failure');
  });

  it('an agent’s pull request whose assignee’s approval is refused stays NO_SHIP through a decoy with no assignee', async () => {
    const repo = repository();
    const head = nextSha();
    await openPullRequest(repo, 3, head, { agent: true, commits: [bareAgentCommit(head)] });
    await buildPassed(repo, head);
    await insertExecution(stack.t.database.db, { owner_id: stack.t.admin.id, repo_root: repo, commit_sha: head });
    await review(repo, 3, { user: 'alice', state: 'APPROVED', commit_id: head });
    const before = await decide(stack.t, repo, head);
    expect(codes(before)).toEqual(['human_approval_missing']);

    await openDecoy(repo, 4, head, {
      base: 'copilot/base',
      files: ['src/a.ts'],
      author: { login: 'Copilot', type: 'Bot' },
      commits: [bareAgentCommit(head)],
    });
    await review(repo, 4, { user: 'alice', state: 'APPROVED', commit_id: head });
    const ambiguous = await decide(stack.t, repo, head);
    expect(ambiguous.decision).toBe('NO_SHIP');
    expect(codes(ambiguous)).toContain('pull_request_ambiguous');
    expect(gateRun(repo, head)?.conclusion).toBe('failure');

    await closeDecoy(repo, 4, head, 'copilot/base');
    const after = await decide(stack.t, repo, head);
    expect(after).toMatchObject({ decision: 'NO_SHIP', authorship: { status: 'read', pull_request: 3 } });
    expect(codes(after)).toEqual(['human_approval_missing']);
  });
});
