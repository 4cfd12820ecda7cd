import { examplePayload, checkRunPayload, pullRequestPayload } from '../../support/github-deliveries.js';
import type { FakePullCommit, FakeReview } from '../../fakes/fake-github-people-routes.js';
import { useAppWithFakeGitHub } from './app-with-fake-github.js';

export const copilot = { name: 'Copilot', email: '198982749+Copilot@users.noreply.github.com', login: 'Copilot', type: 'Bot' as const };
export const webFlow = { name: 'GitHub', email: 'noreply@github.com', login: 'web-flow', type: 'User' as const };
export const alice = { name: 'Alice', email: 'alice@corp.example', login: 'alice', type: 'User' as const };

/** A commit by Copilot's coding agent, naming alice (who asked for it) as co-author by her GitHub noreply address. */
export const agentCommit = (sha: string): FakePullCommit => ({
  sha,
  message: 'Fix the parser\n\nCo-authored-by: Alice <1234+alice@users.noreply.github.com>',
  author: copilot,
  committer: webFlow,
});

export const codes = (d: { blockers: { code: string }[] }) => d.blockers.map((b) => b.code).sort();

/**
 * The App on a fake GitHub under the default gate but for the required check (agent rules on, no
 * reviewed release), with reviewers of known permissions, and the steps of an agent's pull request:
 * opening it, its build passing, and reviews announced by real deliveries.
 */
export function useAgentPullRequests(installationId: number) {
  const stack = useAppWithFakeGitHub({ secret: 'agent-secret', installationId, gate: 'required_checks: [build]\n' });
  const { send } = stack;
  let runIds = 61000;
  let shas = 0;
  const nextSha = () => (++shas).toString(16).padStart(40, 'c');

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

  /** Opens pull request `number` on GitHub and delivers `pull_request.opened` (a real payload). */
  async function openPullRequest(
    repo: string,
    number: number,
    head: string,
    options: { agent?: boolean; commits?: FakePullCommit[] } = {},
  ) {
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
    const payload = examplePayload('pull_request_review', action, repo, installationId);
    payload.pull_request = { ...payload.pull_request, number, head: { ...payload.pull_request.head, sha: pr.head_sha } };
    payload.review = {
      ...payload.review,
      user: { ...payload.review.user, login: r.user },
      state: r.state.toLowerCase(),
      commit_id: r.commit_id,
    };
    expect(await send('pull_request_review', payload)).toEqual({ status: 'queued' });
  }

  return { stack, send, nextSha, openPullRequest, buildPassed, review };
}
