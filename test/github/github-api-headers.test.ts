import { createGitHubAccess } from '../../app/github-access.js';
import { octokitDeploymentReviewer } from '../../app/octokit-deployment-reviewer.js';
import { octokitRecoveryGitHub } from '../../app/octokit-recovery-github.js';
import { buildRuntimeDeps } from '../../worker/build-runtime-deps.js';
import type { GitHubRequest } from '../fakes/fake-github-server.js';
import { pullRequestPayload } from '../support/github-deliveries.js';
import { useAppWithFakeGitHub } from './support/app-with-fake-github.js';

// docs/github-app.md, "How shipgate calls GitHub": every request names the REST API version the
// code was written against and GitHub's current JSON media type; a raw file read asks for raw text.
// The installation every example delivery names (test/support/github-deliveries.ts).
const INSTALLATION = 77;
const stack = useAppWithFakeGitHub({ secret: 'headers-secret', installationId: INSTALLATION, gate: 'required_checks: [ci]\n' });

const headersOf = (request: GitHubRequest) => ({
  request: `${request.method} ${request.path}`,
  version: request.headers['x-github-api-version'],
  accept: request.headers.accept,
});
const isRawRead = (request: GitHubRequest) => request.method === 'GET' && request.path.includes('/contents/');

describe('what every request to GitHub says about itself', () => {
  it('carries X-GitHub-Api-Version 2022-11-28 and application/vnd.github+json, as the App (one installation token for all its uses), its installations and a token', async () => {
    const repo = 'acme/headers';
    const head = stack.repository(repo);
    stack.gh.requests.length = 0;

    // The App as an installation: the delivery's job reads the gate file and posts the check run and comment.
    await stack.send('pull_request', pullRequestPayload('opened', { number: 3, sha: head }, repo));
    // The agent's repository tools: the installation lookup (as the App) and a raw read.
    const { repoReader } = buildRuntimeDeps(stack.t.deps);
    expect(await repoReader!.readFile(repo, head, 'README.md')).toBe(`${repo}\n`);
    // Missed-delivery recovery (as the App) and a deployment review (as the installation).
    await octokitRecoveryGitHub((await stack.t.deps.github.current()).app!).listDeliveries(null);
    await octokitDeploymentReviewer(stack.t.deps.github).review(INSTALLATION, repo, 9001, {
      environment_name: 'production',
      state: 'approved',
      comment: 'ok',
    });
    // GITHUB_TOKEN, where the App is not configured.
    const token = createGitHubAccess({ token: 'ghp_headers_test_token', baseUrl: stack.gh.baseUrl, logger: stack.t.deps.logger });
    expect(await (await token.repository(repo, null))!.readDefaultBranchFile('README.md')).toBe(`${repo}\n`);

    const sent = stack.gh.requests.map(headersOf);
    // Probot's own token request is among them: its headers come from the same defaults.
    expect(sent.map((s) => s.request)).toEqual(
      expect.arrayContaining([
        `POST /app/installations/${INSTALLATION}/access_tokens`,
        `GET /repos/${repo}/installation`,
        'GET /app/hook/deliveries',
        `POST /repos/${repo}/check-runs`,
        `POST /repos/${repo}/issues/3/comments`,
        `POST /repos/${repo}/actions/runs/9001/deployment_protection_rule`,
        `GET /repos/${repo}/contents/README.md`,
      ]),
    );
    // One Probot for the App: posting, the tools and the review share one installation token.
    expect(sent.filter((s) => s.request === `POST /app/installations/${INSTALLATION}/access_tokens`)).toHaveLength(1);
    expect(sent).toEqual(
      stack.gh.requests.map((request) => ({
        request: `${request.method} ${request.path}`,
        version: '2022-11-28',
        accept: isRawRead(request) ? 'application/vnd.github.raw+json' : 'application/vnd.github+json',
      })),
    );
  });
});
