import { pullPeopleRoutes, type FakePullCommit } from '../fakes/fake-github-people-routes.js';
import type { GitHubRoute } from '../fakes/fake-github-route.js';
import { gitHubError } from '../fakes/fake-github-route.js';
import { deliver, pullRequestPayload, settle } from '../support/github-deliveries.js';
import { decide } from '../support/release-api.js';
import { alice, useAgentPullRequests, webFlow } from './support/agent-pull-requests.js';

// The App reads a pull request's head, then lists its commits, reviews and files with separate calls: facts listed
// across a force-push are stored under no head (docs/github-app.md, "A head that moves during a read").
const { stack, send, nextSha, openPullRequest, buildPassed, review } = useAgentPullRequests(314);

const copilot = { name: 'Copilot', email: '198982749+Copilot@users.noreply.github.com', login: 'Copilot', type: 'Bot' as const };
const bareAgentCommit = (sha: string): FakePullCommit => ({ sha, message: 'Change CI', author: copilot, committer: webFlow });

let repos = 0;
const pullRoutes = () =>
  pullPeopleRoutes(
    (ctx) => stack.gh.app.pullRequest(`${ctx.params.owner}/${ctx.params.repo}`, Number(ctx.params.number)),
    () => stack.gh.baseUrl,
  );

/** An agent's pull request whose head edits a workflow, built and approved by carol: NO_SHIP (a protected path). */
async function agentWorkflowEdit(number: number) {
  const repo = `acme/moved-${++repos}`;
  stack.repository(repo);
  const head = nextSha();
  await openPullRequest(repo, number, head, { agent: true, commits: [bareAgentCommit(head)] });
  const pr = stack.gh.app.pullRequest(repo, number)!;
  pr.files = [{ filename: '.github/workflows/ci.yml' }];
  await send('pull_request', pullRequestPayload('synchronize', { number, sha: head, ref: pr.head_ref }, repo));
  await buildPassed(repo, head);
  await review(repo, number, { user: 'carol', state: 'APPROVED', commit_id: head });
  const before = await decide(stack.t, repo, head);
  expect(before.decision).toBe('NO_SHIP');
  expect(before.authorship.changed_files).toEqual(expect.objectContaining({ paths: ['.github/workflows/ci.yml'] }));
  return { repo, head, pr };
}

/** Replaces one of the fake's pull request lists, once: a force-push to a person's README commit just before it answers. */
function forcePushDuring(list: 'commits' | 'files', number: number, other: string) {
  const original = pullRoutes().find((r) => r.pattern.endsWith(`/${list}`))!;
  let raced = false;
  const racing: GitHubRoute = {
    ...original,
    handle: (ctx) => {
      const p = stack.gh.app.pullRequest(`${ctx.params.owner}/${ctx.params.repo}`, Number(ctx.params.number));
      if (!raced && p?.number === number) {
        raced = true;
        p.head_sha = other;
        p.commits = [{ sha: other, message: 'Docs', author: alice, committer: alice }];
        p.files = [{ filename: 'README.md' }];
      }
      return original.handle(ctx);
    },
  };
  stack.gh.route(racing);
  return () => stack.gh.route(original);
}

describe('a force-push while shipgate reads a pull request', () => {
  it.each(['commits', 'files'] as const)(
    'moving before the %s are listed stores none of the new head’s facts under the old head',
    async (list) => {
      const number = list === 'commits' ? 1 : 2;
      const { repo, head, pr } = await agentWorkflowEdit(number);
      const other = nextSha();
      const restore = forcePushDuring(list, number, other);
      try {
        // A re-read at `head` (a label; a review or /shipgate recheck read again too).
        await send('pull_request', pullRequestPayload('labeled', { number, sha: head, ref: pr.head_ref }, repo));
      } finally {
        restore();
      }
      const d = await decide(stack.t, repo, head);
      expect(d.decision).toBe('NO_SHIP');
      // Nothing of the README commit is stored for the workflow edit: its authorship waits for a read of its own.
      expect(JSON.stringify(d.authorship)).not.toContain('README.md');
      expect(JSON.stringify(d.authorship)).not.toContain(other);
      // Read again until GitHub's head is no longer it: then it is left unreadable (fail closed).
      expect(d.blockers).toEqual([expect.objectContaining({ code: 'agent_provenance_unknown', component: 'authorship:unreadable' })]);
    },
  );

  it('a head pushed again is pending until it is read again, not judged by what was read before', async () => {
    const repo = `acme/moved-${++repos}`;
    stack.repository(repo);
    const head = nextSha();
    await openPullRequest(repo, 3, head);
    await buildPassed(repo, head);
    const pr = stack.gh.app.pullRequest(repo, 3)!;
    expect((await decide(stack.t, repo, head)).decision).toBe('SHIP');

    // The head is pushed again; GitHub fails the read that follows (retried in 2 s).
    const original = pullRoutes().find((r) => r.pattern.endsWith('/commits'))!;
    stack.gh.route({ ...original, handle: () => gitHubError(502, 'Server Error', 'https://docs.github.com/rest') });
    const payload = pullRequestPayload('synchronize', { number: 3, sha: head, ref: pr.head_ref }, repo);
    expect((await deliver(stack.t, 'pull_request', payload, { secret: stack.t.deps.config.github.webhookSecret ?? null })).status).toBe(
      202,
    );
    await settle(stack.t, { horizonMs: 0 });
    const d = await decide(stack.t, repo, head);
    expect(d.decision).toBe('NO_SHIP');
    expect(d.authorship.status).toBe('pending');

    // The retried read, once GitHub answers, judges it as before.
    stack.gh.route(original);
    await settle(stack.t);
    expect((await decide(stack.t, repo, head)).decision).toBe('SHIP');
  });
});
