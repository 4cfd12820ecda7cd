import { Octokit } from '@octokit/rest';
import { startFakeGitHub, type FakeGitHub } from '../fakes/fake-github-server.js';

let gh: FakeGitHub;
let octokit: Octokit;
beforeAll(async () => {
  gh = await startFakeGitHub();
  octokit = new Octokit({ auth: 'ghp_any', baseUrl: gh.baseUrl });
});
afterAll(() => gh.close());

describe('fake GitHub REST API', () => {
  it('serves file contents as GitHub does: base64 wrapped at 60 characters, with the blob sha', async () => {
    const text = `${'line of text '.repeat(20)}\n`;
    const sha = gh.repos.commit('Acme/Docs', { files: { 'docs/guide.md': text } });
    const { data } = await octokit.repos.getContent({ owner: 'acme', repo: 'docs', path: 'docs/guide.md', ref: sha });
    const file = data as { type: string; encoding: string; content: string; sha: string };
    expect(file).toMatchObject({ type: 'file', encoding: 'base64', sha: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect(file.content.split('\n')[0]).toHaveLength(60);
    expect(Buffer.from(file.content, 'base64').toString('utf8')).toBe(text);
  });

  it('resolves branch names and HEAD, and reports a compare of commits on one line as ahead', async () => {
    const base = gh.repos.commit('acme/line', { files: { a: '1\n' } });
    gh.repos.commit('acme/line', { files: { a: '2\n' } });
    const head = gh.repos.commit('acme/line', { files: { b: '3\n' } });
    const { data } = await octokit.repos.getContent({ owner: 'acme', repo: 'line', path: 'b', ref: 'main', mediaType: { format: 'raw' } });
    expect(data).toBe('3\n');
    const compared = await octokit.repos.compareCommits({ owner: 'acme', repo: 'line', base, head: 'HEAD' });
    expect(compared.data).toMatchObject({ status: 'ahead', ahead_by: 2, behind_by: 0, total_commits: 2 });
    expect(compared.data.commits.map((c) => c.sha).at(-1)).toBe(head);
  });

  it('takes new endpoints through route(), newest first, and records every request', async () => {
    gh.route({
      method: 'POST',
      pattern: '/repos/{owner}/{repo}/issues/{issue_number}/comments',
      handle: ({ params, body }) => ({
        status: 201,
        body: { id: 1, issue: Number(params.issue_number), body: (body as { body: string }).body },
      }),
    });
    gh.route({
      method: 'GET',
      pattern: '/repos/{owner}/{repo}/commits/{ref}/check-runs',
      handle: () => ({ body: { total_count: 0, check_runs: [] } }),
    });
    const comment = await octokit.issues.createComment({ owner: 'acme', repo: 'line', issue_number: 7, body: 'shipgate: SHIP' });
    expect(comment).toMatchObject({ status: 201, data: { issue: 7, body: 'shipgate: SHIP' } });
    const runs = await octokit.checks.listForRef({ owner: 'acme', repo: 'line', ref: 'main' });
    expect(runs.data.total_count).toBe(0);
    expect(gh.requests.slice(-2).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'POST /repos/acme/line/issues/7/comments 201',
      'GET /repos/acme/line/commits/main/check-runs 200',
    ]);
  });

  it("answers unknown endpoints and paths outside /api/v3 with GitHub's 404 body", async () => {
    const res = await fetch(`${gh.baseUrl}/nope`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ message: 'Not Found' });
    expect((await fetch(`${gh.baseUrl.replace('/api/v3', '')}/repos/acme/line/commits/main`)).status).toBe(404);
  });
});
