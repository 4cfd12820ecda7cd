import type { PullRequestFacts } from '../../core/release/authorship.js';
import { examplePayload, pullRequestPayload } from '../support/github-deliveries.js';
import { decide } from '../support/release-api.js';
import { useAgentPullRequests } from './support/agent-pull-requests.js';

const { stack, send, nextSha, openPullRequest, buildPassed } = useAgentPullRequests(94);

/** What the `github_authorship` job stored for a head. */
async function storedFacts(repo: string, sha: string): Promise<PullRequestFacts> {
  const row = await stack.t.database.db('pull_request_authorship').where({ repo_root: repo, commit_sha: sha }).first();
  expect(row).toMatchObject({ status: 'read' });
  return row.facts as PullRequestFacts;
}

/** Files `dir/file-N.txt` for N from 1 to `count`. */
const manyFiles = (count: number, dir = 'src') => Array.from({ length: count }, (_, i) => ({ filename: `${dir}/file-${i + 1}.txt` }));

/** Pull request `number` now changes these files on GitHub; a `synchronize` delivery re-reads it. */
async function changeFiles(repo: string, number: number, files: ReturnType<typeof manyFiles>, changed?: number | null) {
  const pr = stack.gh.app.pullRequest(repo, number)!;
  pr.files = files;
  pr.changed_files = changed;
  await send('pull_request', pullRequestPayload('synchronize', { number, sha: pr.head_sha, ref: pr.head_ref }, repo));
}

/** GitHub's own `pull_request.labeled` / `unlabeled` payload for pull request `number`, now labelled `labels`. */
async function relabel(repo: string, number: number, action: 'labeled' | 'unlabeled', labels: string[]) {
  const pr = stack.gh.app.pullRequest(repo, number)!;
  pr.labels = labels;
  const payload = examplePayload('pull_request', action, repo, 94);
  payload.number = number;
  payload.pull_request = {
    ...payload.pull_request,
    number,
    state: 'open',
    head: { ...payload.pull_request.head, sha: pr.head_sha, ref: pr.head_ref },
    base: { ...payload.pull_request.base, ref: pr.base_ref },
    labels: labels.map((name) => ({ ...payload.label, name })),
  };
  expect(await send('pull_request', payload)).toEqual({ status: 'queued' });
}

describe('a pull request’s changed files, labels, base branch and CODEOWNERS, read with its authorship', () => {
  it('stores every file (a rename under both names), the labels, the base branch and the base branch’s CODEOWNERS; the decision counts the files', async () => {
    const repo = 'acme/facts';
    stack.repository(repo);
    // GitHub's order: .github/CODEOWNERS wins over a root CODEOWNERS.
    stack.gh.repos.commit(repo, { files: { '.github/CODEOWNERS': '* @acme/owners\n', CODEOWNERS: '* @someone-else\n' } });
    // The pull request's own branch rewrites CODEOWNERS: what counts is the base branch's.
    stack.gh.repos.commit(repo, { branch: 'copilot/fix-3', files: { '.github/CODEOWNERS': '* @the-agent\n' } });
    const head = nextSha();
    await openPullRequest(repo, 3, head);
    const files = [
      { filename: 'infra/main.tf', status: 'renamed' as const, previous_filename: 'infra/old.tf', additions: 2, deletions: 1 },
      ...manyFiles(24),
    ];
    await changeFiles(repo, 3, files);
    await relabel(repo, 3, 'labeled', ['needs-sre']);

    const facts = await storedFacts(repo, head);
    expect(facts).toMatchObject({ base_ref: 'main', labels: ['needs-sre'] });
    expect(facts.files).toMatchObject({ status: 'read', reason: null, total: 25 });
    expect(facts.files!.files[0]).toEqual({
      path: 'infra/main.tf',
      previous_path: 'infra/old.tf',
      status: 'renamed',
      additions: 2,
      deletions: 1,
    });
    expect(facts.files!.files).toHaveLength(25);
    expect(facts.codeowners).toEqual({ status: 'read', path: '.github/CODEOWNERS', text: '* @acme/owners\n' });

    await buildPassed(repo, head);
    const d = await decide(stack.t, repo, head);
    expect(d.authorship.changed_files).toEqual({
      count: 25,
      paths: ['infra/main.tf', ...manyFiles(19).map((f) => f.filename)],
      status: 'read',
      text: 'It changes 25 files.',
    });
  });

  it('a label removed is read again; no CODEOWNERS on the base branch is recorded as absent', async () => {
    const repo = 'acme/labels';
    stack.repository(repo);
    const head = nextSha();
    await openPullRequest(repo, 4, head);
    await relabel(repo, 4, 'labeled', ['needs-sre', 'infra']);
    expect((await storedFacts(repo, head)).labels).toEqual(['needs-sre', 'infra']);
    await relabel(repo, 4, 'unlabeled', ['infra']);
    const facts = await storedFacts(repo, head);
    expect(facts.labels).toEqual(['infra']);
    expect(facts.codeowners).toEqual({ status: 'absent' });
  });

  it('a pull request of 3,500 files records file_limit saying why, without paging through what GitHub lists', async () => {
    const repo = 'acme/huge-change';
    stack.repository(repo);
    const head = nextSha();
    await openPullRequest(repo, 5, head);
    const before = stack.gh.requests.length;
    await changeFiles(repo, 5, manyFiles(3500));

    const facts = await storedFacts(repo, head);
    expect(facts.files).toMatchObject({ status: 'file_limit', total: 3500, files: [] });
    expect(facts.files!.reason).toBe(
      'Pull request #5 changes 3500 files; GitHub lists only 3000, so which paths the others are is unknown.',
    );
    expect(stack.gh.requests.slice(before).filter((r) => r.path.endsWith('/pulls/5/files'))).toEqual([]);
    await buildPassed(repo, head);
    const d = await decide(stack.t, repo, head);
    expect(d.authorship).toMatchObject({
      status: 'read',
      changed_files: {
        count: 3500,
        paths: [],
        status: 'file_limit',
        text: 'It changes 3,500 files, more than GitHub lists: rules that need its files cannot be met (see the blockers).',
      },
    });
  });

  it('GitHub listing exactly 3,000 files: all are read, page by page', async () => {
    const repo = 'acme/at-limit';
    stack.repository(repo);
    const head = nextSha();
    await openPullRequest(repo, 6, head);
    const before = stack.gh.requests.length;
    await changeFiles(repo, 6, manyFiles(3000));
    const facts = await storedFacts(repo, head);
    expect(facts.files).toMatchObject({ status: 'read', total: 3000 });
    expect(facts.files!.files).toHaveLength(3000);
    expect(stack.gh.requests.slice(before).filter((r) => r.path.endsWith('/pulls/6/files'))).toHaveLength(30);
  });

  it('counts the listed files when GitHub’s answer gives no count (the check run said "It changes undefined files.")', async () => {
    const repo = 'acme/files-uncounted';
    stack.repository(repo);
    const head = nextSha();
    await openPullRequest(repo, 8, head);
    await changeFiles(repo, 8, manyFiles(3), null);
    expect((await storedFacts(repo, head)).files).toMatchObject({ status: 'read', total: 3 });
    await buildPassed(repo, head);
    expect((await decide(stack.t, repo, head)).authorship.changed_files.text).toBe('It changes 3 files.');
    expect(stack.gh.takeViolations().join('\n')).toContain('changed_files');
  });

  it('GitHub refusing the files (403) stores them unreadable in its words; who made the pull request stays known', async () => {
    const repo = 'acme/files-refused';
    stack.repository(repo);
    const head = nextSha();
    stack.gh.app.failNext('GET', /\/pulls\/7\/files$/, {
      status: 403,
      body: { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest', status: '403' },
    });
    await openPullRequest(repo, 7, head, { agent: true });
    const facts = await storedFacts(repo, head);
    expect(facts.author).toEqual({ login: 'Copilot', type: 'Bot' });
    expect(facts.files).toMatchObject({ status: 'unreadable', files: [] });
    expect(facts.files!.reason).toContain('Resource not accessible by integration');
    expect(facts.files!.reason).toContain('403');
    await buildPassed(repo, head);
    const d = await decide(stack.t, repo, head);
    expect(d.authorship).toMatchObject({ status: 'read', agent_authored: true, changed_files: { count: null, status: 'unreadable' } });
  });

  it('a GitHub 5xx on the files is retried; one that lasts is stored as unreadable, the authorship still read', async () => {
    const repo = 'acme/files-failing';
    stack.repository(repo);
    const fail = (number: number, times: number) =>
      stack.gh.app.failNext(
        'GET',
        new RegExp(`/pulls/${number}/files$`),
        { status: 502, body: { message: 'Server Error' }, headers: { 'retry-after': '1' } },
        times,
      );
    const once = nextSha();
    fail(8, 1);
    await openPullRequest(repo, 8, once);
    expect((await storedFacts(repo, once)).files).toMatchObject({ status: 'read', total: 1 });

    const lasting = nextSha();
    fail(9, 10);
    await openPullRequest(repo, 9, lasting);
    const facts = await storedFacts(repo, lasting);
    expect(facts.files).toMatchObject({ status: 'unreadable' });
    expect(facts.files!.reason).toContain('502');
    expect(facts.commits.map((c) => c.sha)).toEqual([lasting]);
  });
});
