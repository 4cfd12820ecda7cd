import { pullRequestPayload } from '../support/github-deliveries.js';
import { useAgentPullRequests } from './support/agent-pull-requests.js';

// The check run's and the PR comment's "Rules" section (docs/release-gate.md, "Where rules are shown"), through the
// real App with signed deliveries and the fake GitHub.
const INSTALLATION = 96;
const { stack, send, nextSha, openPullRequest, buildPassed, review } = useAgentPullRequests(INSTALLATION);

const GATE = `required_checks: [build]
rules:
  - name: infra needs SRE
    if: {paths: ["infra/**"]}
    require: {approvals: 2, approvers: {teams: [acme/sre]}}
  - name: docs need a writer
    if: {paths: ["docs/**"]}
    require: {approvals: 1, approvers: {users: [wendy]}}
`;

beforeAll(() => {
  for (const login of ['ana', 'sam', 'wendy']) stack.gh.app.permissions.set(login, 'write');
  stack.gh.app.team('acme/sre', ['ana', 'sam']);
});

describe('the rules that applied, in the check run and the PR comment', () => {
  it('lists each applying rule, met or not, with what is missing and its files, and the count of changed files', async () => {
    const repo = 'acme/rules-shown';
    stack.repository(repo, GATE);
    const head = nextSha();
    await openPullRequest(repo, 5, head);
    const pr = stack.gh.app.pullRequest(repo, 5)!;
    pr.files = ['infra/main.tf', 'infra/vars.tf', 'src/app.ts'].map((filename) => ({ filename }));
    await send('pull_request', pullRequestPayload('synchronize', { number: 5, sha: head, ref: pr.head_ref }, repo));
    await buildPassed(repo, head);
    await review(repo, 5, { user: 'ana', state: 'APPROVED', commit_id: head });

    const comment = stack.gh.app.commentsOn(repo, 5).find((c) => c.body.includes('shipgate:release-gate'))!;
    const [run] = stack.gh.app.checkRunsOn(repo, head);
    for (const text of [comment.body, run.output.summary]) {
      expect(text).toContain('**Rules**');
      expect(text).toContain('It changes 3 files.');
      // The rule's words, logins and paths are quoted (docs/github-app.md, "Quoting outside text"): @ana is not notified.
      expect(text).toContain(
        '| infra needs SRE | **not met** | needs 2 approvals from acme/sre; has 1: @\u200Bana | infra/main\\.tf, infra/vars\\.tf |',
      );
      // A rule whose paths the change does not touch does not apply, so it is not listed.
      expect(text).not.toContain('docs need a writer');
    }

    await review(repo, 5, { user: 'sam', state: 'APPROVED', commit_id: head });
    const [shipped] = stack.gh.app.checkRunsOn(repo, head);
    expect(shipped.conclusion).toBe('success');
    expect(shipped.output.summary).toContain('| infra needs SRE | met | — | infra/main\\.tf, infra/vars\\.tf |');
  });
});
