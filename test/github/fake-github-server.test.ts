import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Octokit } from '@octokit/rest';
import { commentJson } from '../fakes/fake-github-pull-shapes.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/fake-github-server.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Octokit logs each refused request; here they are refused on purpose. */
const log = { debug() {}, info() {}, warn() {}, error() {} };

let gh: FakeGitHub;
let octokit: Octokit;
beforeAll(async () => {
  gh = await startFakeGitHub();
  octokit = new Octokit({ auth: 'ghp_any', baseUrl: gh.baseUrl, log });
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
      handle: ({ params, body }) => {
        const now = new Date().toISOString();
        const fields = { id: 1, repo: `${params.owner}/${params.repo}`, number: Number(params.issue_number), user: 'someone' };
        return {
          status: 201,
          body: commentJson(gh.baseUrl, { ...fields, body: (body as { body: string }).body, created_at: now, updated_at: now }),
        };
      },
    });
    gh.route({
      method: 'GET',
      pattern: '/repos/{owner}/{repo}/commits/{ref}/check-runs',
      handle: () => ({ body: { total_count: 0, check_runs: [] } }),
    });
    const comment = await octokit.issues.createComment({ owner: 'acme', repo: 'line', issue_number: 7, body: 'shipgate: SHIP' });
    expect(comment).toMatchObject({
      status: 201,
      data: { id: 1, issue_url: `${gh.baseUrl}/repos/acme/line/issues/7`, body: 'shipgate: SHIP' },
    });
    const runs = await octokit.checks.listForRef({ owner: 'acme', repo: 'line', ref: 'main' });
    expect(runs.data.total_count).toBe(0);
    expect(gh.requests.slice(-2).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'POST /repos/acme/line/issues/7/comments 201',
      'GET /repos/acme/line/commits/main/check-runs 200',
    ]);
  });

  it("answers unknown endpoints and paths outside /api/v3 with GitHub's 404 body, and records both as violations", async () => {
    const res = await fetch(`${gh.baseUrl}/nope`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ message: 'Not Found' });
    expect((await fetch(`${gh.baseUrl.replace('/api/v3', '')}/repos/acme/line/commits/main`)).status).toBe(404);
    expect(gh.takeViolations()).toEqual([
      expect.stringMatching(/^request GET \/api\/v3\/nope .*\n {4}no such operation in GitHub's REST description$/),
      expect.stringMatching(/^request GET \/repos\/acme\/line\/commits\/main .*\n {4}outside \/api\/v3/),
    ]);
  });
});

describe("the fake GitHub holds both sides to GitHub's REST description", () => {
  const head = 'c'.repeat(40);

  it('answers a check run whose status GitHub does not have ("done") with 422, as GitHub does, and records why', async () => {
    // A commit no other test posts to, so "nothing recorded" holds in any order.
    const refused = 'd'.repeat(40);
    const sent = octokit.checks.create({ owner: 'acme', repo: 'line', name: 'gate', head_sha: refused, status: 'done' as 'completed' });
    await expect(sent).rejects.toMatchObject({ status: 422 });
    expect(gh.app.checkRunsOn('acme/line', refused)).toHaveLength(0);
    const [violation, ...more] = gh.takeViolations();
    expect(more).toEqual([]);
    expect(violation).toContain('request POST /api/v3/repos/acme/line/check-runs (operation POST /repos/{owner}/{repo}/check-runs) during');
    expect(violation).toContain('body/status must be equal to one of the allowed values ["queued","in_progress","completed"] (got "done")');
  });

  it("holds requests to the description's limits and parameter types", async () => {
    const summary = 'x'.repeat(65_536);
    const output = { title: 'gate', summary };
    await expect(octokit.checks.create({ owner: 'acme', repo: 'line', name: 'gate', head_sha: head, output })).rejects.toMatchObject({
      status: 422,
    });
    await expect(
      octokit.issues.listComments({ owner: 'acme', repo: 'line', issue_number: 7, per_page: 'many' as unknown as number }),
    ).rejects.toMatchObject({
      status: 422,
    });
    const [tooLong, notANumber] = gh.takeViolations();
    expect(tooLong).toContain('body/output/summary must NOT have more than 65535 characters');
    expect(notANumber).toContain('query/per_page must be integer (got "many")');
    // One character less is what GitHub takes.
    await octokit.checks.create({
      owner: 'acme',
      repo: 'line',
      name: 'gate',
      head_sha: head,
      output: { title: 'gate', summary: summary.slice(1) },
    });
    expect(gh.app.checkRunsOn('acme/line', head)).toHaveLength(1);
  });

  it('catches an answer GitHub would never give (a check run without its required fields), and close() fails with it', async () => {
    const other = await startFakeGitHub();
    other.route({
      method: 'POST',
      pattern: '/repos/{owner}/{repo}/check-runs',
      handle: ({ body }) => ({
        status: 201,
        body: { id: 1, name: (body as { name: string }).name, status: 'completed', conclusion: 'success' },
      }),
    });
    const client = new Octokit({ auth: 'ghp_any', baseUrl: other.baseUrl });
    const { data } = await client.checks.create({ owner: 'acme', repo: 'line', name: 'gate', head_sha: head, conclusion: 'success' });
    expect(data).toMatchObject({ id: 1, name: 'gate' });
    await expect(other.close()).rejects.toThrow(
      /answer 201 to POST \/api\/v3\/repos\/acme\/line\/check-runs [^\n]*:\n {4}body must have required property 'node_id'\n {4}body must have required property 'head_sha'/,
    );
  });

  it('fails the test in which the App sent a wrong field, even when the client shrugs off the 422 (a child jest run)', async () => {
    const { default: config } = (await import(pathToFileURL(path.join(ROOT, 'jest.config.js')).href)) as {
      default: Record<string, unknown>;
    };
    // The child needs no database: it runs only the fixture, without the suite's global setup.
    const { globalSetup: _db, globalTeardown: _dbEnd, ...rest } = config;
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fake-github-')), 'result.json');
    const child = { ...rest, rootDir: ROOT, testMatch: ['<rootDir>/test/github/fixtures/wrong-check-run-status.fixture.ts'] };
    spawnSync(
      process.execPath,
      [path.join(ROOT, 'node_modules/jest/bin/jest.js'), '--config', JSON.stringify(child), '--json', `--outputFile=${out}`],
      {
        cwd: ROOT,
        env: { ...process.env, NODE_OPTIONS: '--experimental-vm-modules' },
        encoding: 'utf8',
      },
    );
    const report = JSON.parse(fs.readFileSync(out, 'utf8')) as {
      testResults: { assertionResults: { title: string; status: string; failureMessages: string[] }[] }[];
    };
    const results = report.testResults[0].assertionResults;
    expect(results.map((r) => [r.title, r.status])).toEqual([
      ['posts a check run whose status GitHub does not have', 'failed'],
      ['posts a valid check run', 'passed'],
    ]);
    expect(results[0].failureMessages[0]).toContain('body/status must be equal to one of the allowed values');
  }, 60_000);
});
