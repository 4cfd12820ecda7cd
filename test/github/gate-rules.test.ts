import { examplePayload, pullRequestPayload } from '../support/github-deliveries.js';
import { decide, insertExecution } from '../support/release-api.js';
import { codes, useAgentPullRequests } from './support/agent-pull-requests.js';

const INSTALLATION = 98;
const { stack, send, nextSha, openPullRequest, buildPassed, review } = useAgentPullRequests(INSTALLATION);

const SRE_GATE = `required_checks: [build]
rules:
  - name: infra needs SRE
    if: {paths: ["infra/**"]}
    require: {approvals: 2, approvers: {teams: [acme/sre]}}
`;

beforeAll(() => {
  for (const login of ['ana', 'sam', 'tom', 'dora', 'zed']) stack.gh.app.permissions.set(login, 'write');
  stack.gh.app.team('acme/sre', ['ana', 'sam', 'tom']);
});

let repos = 0;
/** A repository of the test's own (so tests run in any order), with this gate file on its default branch. */
function repository(gate?: string): string {
  const repo = `acme/rules-${++repos}`;
  stack.repository(repo, gate);
  return repo;
}

/** Opens pull request `number` (alice's, or the agent's) changing `paths`, with its build green. */
async function openChanging(repo: string, number: number, paths: string[], options: { agent?: boolean } = {}) {
  const head = nextSha();
  await openPullRequest(repo, number, head, options);
  const pr = stack.gh.app.pullRequest(repo, number)!;
  pr.files = paths.map((filename) => ({ filename }));
  await send('pull_request', pullRequestPayload('synchronize', { number, sha: head, ref: pr.head_ref }, repo));
  await buildPassed(repo, head);
  return head;
}

/** A reviewer's review dismissed on GitHub (its state becomes DISMISSED), announced by a real delivery. */
async function dismiss(repo: string, number: number, login: string) {
  const pr = stack.gh.app.pullRequest(repo, number)!;
  pr.reviews = (pr.reviews ?? []).map((r) => (r.user === login ? { ...r, state: 'DISMISSED' } : r));
  const payload = examplePayload('pull_request_review', 'dismissed', repo, INSTALLATION);
  payload.pull_request = { ...payload.pull_request, number, head: { ...payload.pull_request.head, sha: pr.head_sha } };
  payload.review = { ...payload.review, user: { ...payload.review.user, login }, state: 'dismissed' };
  expect(await send('pull_request_review', payload)).toEqual({ status: 'queued' });
}

describe('a rule by changed paths through the App (acceptance 1)', () => {
  it('infra/main.tf with one SRE approval is NO_SHIP naming the rule and the file; with two it ships', async () => {
    const repo = repository(SRE_GATE);
    const head = await openChanging(repo, 1, ['infra/main.tf', 'README.md']);
    await review(repo, 1, { user: 'ana', state: 'APPROVED', commit_id: head });
    const d = await decide(stack.t, repo, head);
    expect(d.blockers).toEqual([
      expect.objectContaining({
        code: 'rule_not_met',
        component: 'rule:infra needs SRE',
        reason: "Rule 'infra needs SRE' (it applies to infra/main.tf) is not met: needs 2 approvals from acme/sre; has 1: @ana.",
        waitable: false,
      }),
    ]);
    expect(d.authorship.rules).toEqual([expect.objectContaining({ name: 'infra needs SRE', met: false, triggered_by: ['infra/main.tf'] })]);
    const [run] = stack.gh.app.checkRunsOn(repo, head);
    expect(run.conclusion).toBe('failure');

    await review(repo, 1, { user: 'sam', state: 'APPROVED', commit_id: head });
    const shipped = await decide(stack.t, repo, head);
    expect(shipped).toMatchObject({ decision: 'SHIP', blockers: [] });
    expect(shipped.authorship.rules).toEqual([expect.objectContaining({ name: 'infra needs SRE', met: true })]);
    expect(stack.gh.app.checkRunsOn(repo, head)[0].conclusion).toBe('success');
  });

  it('a pull request touching only docs/ is unaffected', async () => {
    const repo = repository(SRE_GATE);
    const head = await openChanging(repo, 2, ['docs/guide.md']);
    const d = await decide(stack.t, repo, head);
    expect(d).toMatchObject({ decision: 'SHIP', blockers: [] });
    expect(d.authorship.rules).toBeUndefined();
  });
});

describe('code owners from the base branch (acceptance 2)', () => {
  const GATE = `required_checks: [build]
rules:
  - name: code owners
    require: {approvers: {codeowners: true}}
`;

  it('each changed file needs an approval from one of its owners, a user or a team member; the pull request’s own CODEOWNERS changes nothing', async () => {
    const repo = repository(GATE);
    stack.gh.repos.commit(repo, { files: { '.github/CODEOWNERS': '*.md @dora\n/infra/ @acme/sre\n' } });
    // The agent's branch makes zed the owner of everything: the base branch's file is what counts.
    stack.gh.repos.commit(repo, { branch: 'copilot/fix-3', files: { '.github/CODEOWNERS': '* @zed\n' } });
    const head = await openChanging(repo, 3, ['infra/main.tf', 'docs/guide.md', '.github/CODEOWNERS']);
    await review(repo, 3, { user: 'dora', state: 'APPROVED', commit_id: head });
    await review(repo, 3, { user: 'zed', state: 'APPROVED', commit_id: head });
    const d = await decide(stack.t, repo, head);
    expect(codes(d)).toEqual(['rule_not_met']);
    expect(d.authorship.rules[0].missing).toBe("needs a code owner's approval of infra/main.tf (@acme/sre)");

    await review(repo, 3, { user: 'tom', state: 'APPROVED', commit_id: head });
    expect(await decide(stack.t, repo, head)).toMatchObject({ decision: 'SHIP', blockers: [] });
  });
});

describe('disapproval (acceptance 3)', () => {
  it('changes requested by an SRE block until the review is dismissed', async () => {
    const repo = repository(SRE_GATE);
    const head = await openChanging(repo, 4, ['infra/main.tf']);
    await review(repo, 4, { user: 'ana', state: 'APPROVED', commit_id: head });
    await review(repo, 4, { user: 'sam', state: 'APPROVED', commit_id: head });
    await review(repo, 4, { user: 'tom', state: 'CHANGES_REQUESTED', commit_id: head });
    const d = await decide(stack.t, repo, head);
    expect(d.blockers).toEqual([
      expect.objectContaining({
        code: 'rule_disapproved',
        component: 'rule:infra needs SRE',
        reason: expect.stringContaining('@tom requested changes'),
      }),
    ]);
    expect(d.authorship.rules[0].disapproved_by).toEqual(['tom']);

    await dismiss(repo, 4, 'tom');
    expect(await decide(stack.t, repo, head)).toMatchObject({ decision: 'SHIP', blockers: [] });
  });
});

describe('protected paths under the default gate (acceptance 5)', () => {
  it('Copilot’s pull request editing .github/workflows/ci.yml needs a maintainer even with every other requirement met', async () => {
    const repo = repository();
    const head = await openChanging(repo, 5, ['.github/workflows/ci.yml'], { agent: true });
    await insertExecution(stack.t.database.db, { owner_id: stack.t.admin.id, repo_root: repo, commit_sha: head });
    await review(repo, 5, { user: 'carol', state: 'APPROVED', commit_id: head });
    const d = await decide(stack.t, repo, head);
    expect(d.blockers).toEqual([
      expect.objectContaining({
        code: 'rule_not_met',
        component: 'rule:protected_paths',
        reason: expect.stringContaining('needs 1 approval from people with maintain or more; has none'),
      }),
    ]);
    expect(d.authorship.rules).toEqual([expect.objectContaining({ name: 'protected_paths', triggered_by: ['.github/workflows/ci.yml'] })]);

    stack.gh.app.grant(repo, 'frank', 'maintain');
    await review(repo, 5, { user: 'frank', state: 'APPROVED', commit_id: head });
    expect(await decide(stack.t, repo, head)).toMatchObject({ decision: 'SHIP', blockers: [] });
  });

  it('a person’s pull request editing the same file does not need one', async () => {
    const repo = repository();
    const head = await openChanging(repo, 6, ['.github/workflows/ci.yml']);
    expect(await decide(stack.t, repo, head)).toMatchObject({ decision: 'SHIP', blockers: [] });
  });
});
