import { pullRequestPayload } from '../support/github-deliveries.js';
import { decide, insertExecution } from '../support/release-api.js';
import { useAgentPullRequests } from './support/agent-pull-requests.js';

const { stack, send, nextSha, openPullRequest, buildPassed, review } = useAgentPullRequests(95);

type Decision = { decision: string; blockers: { code: string; reason: string; waitable: boolean }[] };

/**
 * An agent's pull request that meets every other requirement of the default gate (its build passed,
 * governed work bound to the head, an independent approval), changing `files` README-like files.
 */
async function agentPullRequest(repo: string, number: number, options: { files?: number; failFiles?: () => void } = {}) {
  stack.repository(repo);
  const head = nextSha();
  options.failFiles?.();
  await openPullRequest(repo, number, head, { agent: true });
  if (options.files !== undefined) {
    stack.gh.app.pullRequest(repo, number)!.files = Array.from({ length: options.files }, (_, i) => ({ filename: `docs/page-${i}.md` }));
    await send('pull_request', pullRequestPayload('synchronize', { number, sha: head, ref: `copilot/fix-${number}` }, repo));
  }
  await insertExecution(stack.t.database.db, { owner_id: stack.t.admin.id, repo_root: repo, commit_sha: head });
  await buildPassed(repo, head);
  await review(repo, number, { user: 'carol', state: 'APPROVED', commit_id: head });
  return head;
}

const filesUnknown = (d: Decision) => d.blockers.filter((b) => b.code === 'changed_files_unknown');

describe('under the default gate (protected paths on), an agent’s pull request whose files are not all known never ships', () => {
  it('the same pull request with its files read ships', async () => {
    const repo = 'acme/fc-known';
    const head = await agentPullRequest(repo, 1, { files: 12 });
    expect(await decide(stack.t, repo, head)).toMatchObject({ decision: 'SHIP', blockers: [] });
  });

  it('3,500 files: NO_SHIP with changed_files_unknown saying GitHub lists only 3,000', async () => {
    const repo = 'acme/fc-huge';
    const head = await agentPullRequest(repo, 2, { files: 3500 });
    const d = (await decide(stack.t, repo, head)) as Decision;
    expect(d.decision).toBe('NO_SHIP');
    expect(filesUnknown(d)).toHaveLength(1);
    expect(filesUnknown(d)[0].reason).toContain('3500 files');
    expect(filesUnknown(d)[0].reason).toContain('3000');
    expect(filesUnknown(d)[0].waitable).toBe(false);
  });

  it('GitHub refusing the files (403) at every read: NO_SHIP in GitHub’s words', async () => {
    const repo = 'acme/fc-refused';
    const head = await agentPullRequest(repo, 3, {
      failFiles: () =>
        stack.gh.app.failNext(
          'GET',
          /\/pulls\/3\/files$/,
          {
            status: 403,
            body: { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest', status: '403' },
          },
          100,
        ),
    });
    const d = (await decide(stack.t, repo, head)) as Decision;
    expect(d.decision).toBe('NO_SHIP');
    expect(filesUnknown(d)).toHaveLength(1);
    expect(filesUnknown(d)[0].reason).toContain('Resource not accessible by integration');
  });

  it('GitHub answering 5xx for the files however often it is asked: NO_SHIP', async () => {
    const repo = 'acme/fc-failing';
    const head = await agentPullRequest(repo, 4, {
      failFiles: () =>
        stack.gh.app.failNext(
          'GET',
          /\/pulls\/4\/files$/,
          { status: 503, body: { message: 'Service Unavailable' }, headers: { 'retry-after': '1' } },
          100,
        ),
    });
    const d = (await decide(stack.t, repo, head)) as Decision;
    expect(d.decision).toBe('NO_SHIP');
    expect(filesUnknown(d)).toHaveLength(1);
    expect(filesUnknown(d)[0].reason).toContain('503');
  });
});
