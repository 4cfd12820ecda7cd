import { loadConfig } from '../../server/load-config.js';
import { createGitHubAccess } from '../../app/github-access.js';
import { githubAccessFromConfig, githubApiBaseUrl } from '../../app/github-access-from-config.js';
import { createGitHubRepoReader } from '../../app/github-repo-reader.js';
import { createLogger } from '../../server/create-logger.js';
import type { RepoReader } from '../../core/github/repo-reader.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/fake-github-server.js';

const TOKEN = 'ghp_fakeTokenForTests0123456789abcdefABCD';
const README_V1 = '# app\n\nRelease gate: café ✓\n';
const README_V2 = '# app\n\nRelease gate: café ✓\nNow with a changelog.\n';

const logger = createLogger('silent');
let gh: FakeGitHub;
let reader: RepoReader;
let first: string;
let second: string;

beforeAll(async () => {
  gh = await startFakeGitHub({ token: TOKEN });
  first = gh.repos.commit('acme/app', { files: { 'README.md': README_V1, 'src/index.ts': 'export {};\n', 'old.txt': 'gone soon\n' } });
  second = gh.repos.commit('acme/app', { files: { 'README.md': README_V2, 'CHANGELOG.md': '## 0.1.0\n- first\n', 'old.txt': null } });
  // GHE_HOST / GHE_PROTOCOL route the reader to the fake exactly as they route Probot.
  const config = loadConfig(gh.env());
  const access = githubAccessFromConfig(config, logger);
  reader = createGitHubRepoReader((repo) => access.readerOctokit(repo));
});
afterAll(() => gh.close());
beforeEach(() => {
  gh.requests.length = 0;
});

describe('githubApiBaseUrl', () => {
  it('is api.github.com without GHE_HOST, and /api/v3 on the enterprise host otherwise (https by default)', () => {
    expect(githubApiBaseUrl({})).toBe('https://api.github.com');
    expect(githubApiBaseUrl({ gheHost: 'github.example.com' })).toBe('https://github.example.com/api/v3');
    expect(githubApiBaseUrl({ gheHost: gh.host, gheProtocol: 'http' })).toBe(gh.baseUrl);
  });
});

describe('GitHub repo reader against the fake GitHub REST API', () => {
  it('reads a file at a commit, byte for byte, with the token', async () => {
    expect(await reader.readFile('acme/app', second, 'README.md')).toBe(README_V2);
    expect(await reader.readFile('acme/app', first, 'README.md')).toBe(README_V1);
    expect(await reader.readFile('acme/app', first, 'src/index.ts')).toBe('export {};\n');
    expect(gh.requests[0]).toMatchObject({
      method: 'GET',
      path: '/repos/acme/app/contents/README.md',
      status: 200,
      headers: { authorization: `token ${TOKEN}` },
    });
    expect(gh.requests[0].query.get('ref')).toBe(second);
  });

  it('answers null for a file that does not exist at that commit, a directory, or an unknown ref', async () => {
    expect(await reader.readFile('acme/app', first, 'CHANGELOG.md')).toBeNull();
    expect(await reader.readFile('acme/app', second, 'old.txt')).toBeNull();
    expect(await reader.readFile('acme/app', second, 'src')).toBeNull();
    expect(await reader.readFile('acme/app', 'f'.repeat(40), 'README.md')).toBeNull();
    expect(gh.requests.map((r) => r.status)).toEqual([404, 404, 200, 404]);
  });

  it('lists the changes between two commits', async () => {
    const changes = await reader.listChanges('acme/app', first, second);
    expect(changes).toEqual([
      { filename: 'CHANGELOG.md', status: 'added', additions: 3, deletions: 0 },
      { filename: 'README.md', status: 'modified', additions: 1, deletions: 0 },
      { filename: 'old.txt', status: 'removed', additions: 0, deletions: 2 },
    ]);
    expect(gh.requests[0].path).toBe(`/repos/acme/app/compare/${first}...${second}`);
  });

  it("lists a commit's own changes when there is no base (all files added for the first commit)", async () => {
    expect((await reader.listChanges('acme/app', null, second)).map((c) => `${c.status} ${c.filename}`)).toEqual([
      'added CHANGELOG.md',
      'modified README.md',
      'removed old.txt',
    ]);
    expect((await reader.listChanges('acme/app', null, first)).map((c) => c.status)).toEqual(['added', 'added', 'added']);
  });

  it('fails with a short message, without the token, for an unknown repository or bad credentials', async () => {
    await expect(reader.listChanges('acme/missing', first, second)).rejects.toThrow(
      `comparing ${first}...${second}: GitHub answered 404 Not Found`,
    );
    const wrong = createGitHubAccess({ token: 'ghp_wrongTokenForTests99999999999999999999', baseUrl: gh.baseUrl, logger });
    const intruder = createGitHubRepoReader((repo) => wrong.readerOctokit(repo));
    await expect(intruder.readFile('acme/app', second, 'README.md')).rejects.toThrow(
      new Error(`reading README.md at ${second}: GitHub answered 401 Bad credentials`),
    );
    await expect(reader.readFile('not-a-repo', second, 'README.md')).rejects.toThrow('owner/repo');
  });

  it('gives up when the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(reader.readFile('acme/app', second, 'README.md', controller.signal)).rejects.toThrow('aborted');
  });
});
