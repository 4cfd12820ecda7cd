import type { PullRequestFacts } from '../../core/release/authorship.js';
import { pullRequestPayload } from '../support/github-deliveries.js';
import { useAgentPullRequests } from './support/agent-pull-requests.js';

const { stack, send, nextSha, openPullRequest } = useAgentPullRequests(96);

const GATE = `required_checks: [build]
rules:
  - name: infra needs SRE
    if: {paths: ["infra/**"]}
    require: {approvals: 1, approvers: {teams: [acme/SRE, acme/ghost], codeowners: true}}
`;

async function storedFacts(repo: string, sha: string): Promise<PullRequestFacts> {
  const row = await stack.t.database.db('pull_request_authorship').where({ repo_root: repo, commit_sha: sha }).first();
  return row.facts as PullRequestFacts;
}

/** Opens pull request `number` changing `paths`. */
async function openChanging(repo: string, number: number, paths: string[]) {
  const head = nextSha();
  await openPullRequest(repo, number, head);
  stack.gh.app.pullRequest(repo, number)!.files = paths.map((filename) => ({ filename }));
  await send('pull_request', pullRequestPayload('synchronize', { number, sha: head, ref: `copilot/fix-${number}` }, repo));
  return head;
}

describe('the members of the teams a gate’s rules and CODEOWNERS name, read with the pull request', () => {
  it('reads the rules’ teams and the code owners’ teams of the changed paths, through GitHub’s team members list, once a minute', async () => {
    const repo = 'acme/teams';
    stack.repository(repo, GATE);
    stack.gh.repos.commit(repo, { files: { '.github/CODEOWNERS': 'infra/** @acme/platform\ndocs/** @acme/writers\n' } });
    stack.gh.app.team('acme/sre', ['Ana', 'bo']);
    stack.gh.app.team('acme/platform', ['cy']);
    stack.gh.app.team('acme/writers', ['dee']);

    const before = stack.gh.requests.length;
    const head = await openChanging(repo, 1, ['infra/main.tf']);
    expect((await storedFacts(repo, head)).teams).toEqual({ 'acme/sre': ['ana', 'bo'], 'acme/ghost': null, 'acme/platform': ['cy'] });
    const teamReads = () =>
      stack.gh.requests
        .slice(before)
        .filter((r) => r.path.startsWith('/orgs/acme/teams/'))
        .map((r) => r.path);
    const first = teamReads();
    expect(new Set(first)).toEqual(
      new Set(['/orgs/acme/teams/sre/members', '/orgs/acme/teams/ghost/members', '/orgs/acme/teams/platform/members']),
    );

    // Another pull request within the minute: the members are GitHub's answer of a moment ago, not asked again (404s included).
    const other = await openChanging(repo, 2, ['infra/network.tf']);
    expect((await storedFacts(repo, other)).teams).toEqual({ 'acme/sre': ['ana', 'bo'], 'acme/ghost': null, 'acme/platform': ['cy'] });
    expect(teamReads()).toEqual(first);
  });
});
