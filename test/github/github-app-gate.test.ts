import { githubAccessFromConfig } from '../../app/github-access-from-config.js';
import { buildRuntimeDeps } from '../../worker/build-runtime-deps.js';
import { TOKEN_USER } from '../fakes/fake-github-shapes.js';
import { createTestApp } from '../support/test-app.js';
import { checkRunPayload, examplePayload, pullRequestPayload, writes } from '../support/github-deliveries.js';
import { useAppWithFakeGitHub } from './support/app-with-fake-github.js';

const GATE = 'required_checks: [ci]\nrequire_reviewed_release: false\n';

const stack = useAppWithFakeGitHub({ secret: 'gate-secret', installationId: 88, gate: GATE });
const { repository, send } = stack;
let runIds = 20000;

function mergeGroup(repo: string, headSha: string, headRef: string) {
  const payload = examplePayload('merge_group', 'checks_requested', repo, 88);
  payload.merge_group = { ...payload.merge_group, head_sha: headSha, head_ref: headRef, base_ref: 'refs/heads/main' };
  return payload;
}

describe('merge queues', () => {
  const repo = 'acme/queue';
  const prHead = '1'.repeat(40);
  const group = '2'.repeat(40);
  const queueRef = `refs/heads/gh-readonly-queue/main/pr-104-${'9'.repeat(40)}`;
  beforeAll(() => {
    repository(repo);
  });

  it("evaluates the group's head SHA for real: its own required check decides", async () => {
    await send('pull_request', pullRequestPayload('opened', { number: 104, sha: prHead }, repo));
    await send('check_run', checkRunPayload('completed', { id: runIds++, name: 'ci', sha: prHead }, repo));
    expect(stack.gh.app.checkRunsOn(repo, prHead)[0].conclusion).toBe('success');

    expect(await send('merge_group', mergeGroup(repo, group, queueRef))).toEqual({ status: 'queued' });
    const [first] = stack.gh.app.checkRunsOn(repo, group);
    // Nothing has run on the group commit yet: never an unconditional pass, and not a failure that would drop it from the queue.
    expect([first.status, first.conclusion]).toEqual(['in_progress', null]);
    expect(first.output.summary).toContain('Merge group for pull request #104');

    await send('check_run', checkRunPayload('completed', { id: runIds++, name: 'ci', sha: group, conclusion: 'failure' }, repo));
    const failed = stack.gh.app.checkRunsOn(repo, group);
    expect(failed).toHaveLength(1);
    expect(failed[0].conclusion).toBe('failure');
    // The blocker's words are quoted (docs/github-app.md, "Quoting outside text"): `#104` links no pull request there.
    expect(failed[0].output.summary).toContain('| `required_check_failed` | check:ci | PR \\#\u200B104: Required check');

    await send('check_run', checkRunPayload('completed', { id: runIds++, name: 'ci', sha: group, conclusion: 'success' }, repo));
    expect(stack.gh.app.checkRunsOn(repo, group)[0].conclusion).toBe('success');
    expect(stack.gh.app.commentsOn(repo, 104).filter((c) => c.body.includes('shipgate:release-gate'))).toHaveLength(1);
  });

  it('a group whose pull request cannot be identified fails closed, saying why', async () => {
    const odd = '3'.repeat(40);
    await send('merge_group', mergeGroup(repo, odd, 'refs/heads/some-queue/main'));
    const [run] = stack.gh.app.checkRunsOn(repo, odd);
    expect(run.conclusion).toBe('failure');
    expect(run.output.summary).toContain('is not a merge queue branch \\(gh\\-readonly\\-queue/\\<base\\>/pr\\-\\<N\\>\\-\\<sha\\>\\)');

    const unknown = '4'.repeat(40);
    await send('merge_group', mergeGroup(repo, unknown, `refs/heads/gh-readonly-queue/main/pr-999-${'8'.repeat(40)}`));
    const [closed] = stack.gh.app.checkRunsOn(repo, unknown);
    expect(closed.conclusion).toBe('failure');
    expect(closed.output.summary).toContain('Pull request \\#\u200B999 of the merge group could not be found\\.');
  });
});

describe('GitHub failures while posting', () => {
  it('a 502 and a secondary rate limit (403 with Retry-After) are retried and succeed', async () => {
    const repo = 'acme/flaky';
    const sha = '5'.repeat(40);
    repository(repo);
    stack.gh.app.failNext('POST', /\/check-runs$/, { status: 502, body: { message: 'Server Error' } });
    stack.gh.app.failNext('POST', /\/issues\/\d+\/comments$/, {
      status: 403,
      body: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' },
      headers: { 'retry-after': '1' },
    });
    const started = Date.now();
    await send('pull_request', pullRequestPayload('opened', { number: 1, sha }, repo));
    expect(stack.gh.app.checkRunsOn(repo, sha)).toHaveLength(1);
    expect(stack.gh.app.commentsOn(repo, 1)).toHaveLength(1);
    const statuses = stack.gh.requests.filter((r) => r.method === 'POST' && r.path.startsWith(`/repos/${repo}/`)).map((r) => r.status);
    expect(statuses).toEqual([502, 201, 403, 201]);
    const retries = stack.t.logs.events('github_publish_retry').filter((r) => r.repo_root === repo);
    expect(retries.map((r) => r.delay_seconds)).toEqual([2, 1]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
  });
});

describe('.github/shipgate.yml', () => {
  it('an invalid file fails the check run, naming the file, the line and the error', async () => {
    const repo = 'acme/badconfig';
    const sha = '6'.repeat(40);
    repository(repo, 'required_checks: [ci]\nevidence_max_age_seconds: soon\n');
    await send('pull_request', pullRequestPayload('opened', { number: 3, sha }, repo));
    const [run] = stack.gh.app.checkRunsOn(repo, sha);
    expect([run.conclusion, run.output.title]).toEqual(['failure', 'NO_SHIP: .github/shipgate.yml is invalid']);
    expect(run.output.summary).toMatch(/^- \\\.github\/shipgate\\\.yml:2: evidence\\_max\\_age\\_seconds: .+$/m);

    repository(repo, 'required_checks: [ci\n');
    await send('check_suite', { ...examplePayload('check_suite', 'rerequested', repo, 88), check_suite: { head_sha: sha } });
    expect(stack.gh.app.checkRunsOn(repo, sha)[0].output.summary).toMatch(/^- \\\.github\/shipgate\\\.yml:\d+: /m);
  });

  it('a config change on the pull request branch does not change the gate (only the default branch counts)', async () => {
    const repo = 'acme/loosen';
    const sha = repository(repo);
    const loosened = stack.gh.repos.commit(repo, {
      branch: 'loosen',
      parent: sha,
      files: { '.github/shipgate.yml': 'required_checks: []\nrequire_reviewed_release: false\n' },
    });
    await send('pull_request', pullRequestPayload('opened', { number: 4, sha: loosened, ref: 'loosen' }, repo));
    await send('check_run', checkRunPayload('completed', { id: runIds++, name: 'lint', sha: loosened }, repo));
    const [run] = stack.gh.app.checkRunsOn(repo, loosened);
    // Not SHIP: the default branch's gate still requires ci, which has not run (so the check waits for it).
    expect([run.status, run.conclusion, run.output.title]).toEqual(['in_progress', null, 'Waiting for ci']);
    expect(run.output.summary).toContain('| `required_check_missing` | check:ci |');
    const gate = await stack.t.request.get(`/api/v1/releases/gates/${repo}`).set(stack.t.admin.auth);
    expect(gate.body.required_checks ?? gate.body.gate?.required_checks).toEqual(['ci']);
    const reads = stack.gh.requests
      .filter((r) => decodeURIComponent(r.path) === `/repos/${repo}/contents/.github/shipgate.yml`)
      .map((r) => r.query.get('ref'));
    expect(reads.length).toBeGreaterThan(0);
    expect(new Set(reads)).toEqual(new Set(['main']));
  });
});

describe('credentials', () => {
  it("the agent's repository tools read through the installation token where the App is installed, else GITHUB_TOKEN", async () => {
    stack.gh.app.installations.set('acme/tools', 31);
    stack.gh.repos.commit('acme/tools', { files: { 'README.md': 'tools\n' } });
    stack.gh.repos.commit('acme/elsewhere', { files: { 'README.md': 'elsewhere\n' } });
    const config = { ...stack.t.deps.config, github: { ...stack.t.deps.config.github, token: 'ghp_fallback' } };
    const runtime = buildRuntimeDeps({ ...stack.t.deps, config, github: githubAccessFromConfig(config, stack.t.deps.logger) });
    stack.gh.requests.length = 0;
    expect(await runtime.repoReader!.readFile('acme/tools', 'main', 'README.md')).toBe('tools\n');
    expect(await runtime.repoReader!.readFile('acme/elsewhere', 'main', 'README.md')).toBe('elsewhere\n');
    const reads = stack.gh.requests.filter((r) => r.path.endsWith('/contents/README.md'));
    expect(reads.map((r) => r.headers.authorization)).toEqual(['token ghs_installation_31', 'token ghp_fallback']);
  });

  /** shipgate with GITHUB_TOKEN and no App credentials, its job worker in process. */
  const tokenOnlyApp = (secret: string) =>
    createTestApp({ ...stack.gh.env(), SHIPGATE_PUBLIC_URL: 'https://shipgate.example', WEBHOOK_SECRET: secret }, { worker: true });

  it('without App credentials, GITHUB_TOKEN posts', async () => {
    const app = await tokenOnlyApp('token-only-secret');
    try {
      const repo = 'acme/tokenonly';
      const sha = '7'.repeat(40);
      stack.gh.repos.commit(repo, { files: { '.github/shipgate.yml': GATE } });
      stack.gh.requests.length = 0;
      await send('pull_request', pullRequestPayload('opened', { number: 8, sha }, repo), app);
      expect(stack.gh.app.checkRunsOn(repo, sha)).toHaveLength(1);
      expect(stack.gh.app.commentsOn(repo, 8)).toHaveLength(1);
      expect(new Set(stack.gh.requests.map((r) => r.headers.authorization))).toEqual(new Set(['token ghp_fake_github_token']));
    } finally {
      await app.close();
    }
  });

  it("with GITHUB_TOKEN, keeps to the comments of that token's user: one someone else wrote with the marker is left alone", async () => {
    const app = await tokenOnlyApp('token-forged-secret');
    try {
      const repo = 'acme/tokenforged';
      const sha = '6'.repeat(40);
      stack.gh.repos.commit(repo, { files: { '.github/shipgate.yml': GATE } });
      const forged = stack.gh.app.addComment(repo, 9, '<!-- shipgate:release-gate -->\n**Decision: SHIP**', 'agent-account');
      await send('pull_request', pullRequestPayload('opened', { number: 9, sha }, repo), app);
      await send('check_run', checkRunPayload('completed', { id: runIds++, name: 'ci', sha }, repo), app);
      const comments = stack.gh.app.commentsOn(repo, 9);
      expect(comments).toHaveLength(2);
      expect(comments[0]).toMatchObject({ id: forged.id, body: '<!-- shipgate:release-gate -->\n**Decision: SHIP**' });
      expect(comments[1]).toMatchObject({ user: TOKEN_USER });
      expect(comments[1].body).toContain('**Decision: SHIP**');
      expect(writes(stack.gh).filter((w) => w.includes(`/issues/comments/${forged.id}`))).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('with neither, evidence is recorded and decisions computed, and the job says once why it cannot post', async () => {
    const app = await createTestApp({ WEBHOOK_SECRET: 'no-credentials-secret' }, { worker: true });
    try {
      const repo = 'acme/nocreds';
      const sha = '8'.repeat(40);
      stack.gh.requests.length = 0;
      await send('pull_request', pullRequestPayload('opened', { number: 1, sha }, repo), app);
      await send('check_run', checkRunPayload('completed', { id: runIds++, name: 'ci', sha }, repo), app);
      const { rows: evidence } = await app.database.db.raw('SELECT name FROM evidence WHERE repo_root = ?', [repo]);
      expect(evidence.map((r: { name: string }) => r.name)).toEqual(['ci']);
      const { rows: snapshots } = await app.database.db.raw('SELECT decision FROM snapshots WHERE repo_root = ? AND commit_sha = ?', [
        repo,
        sha,
      ]);
      expect(snapshots.length).toBeGreaterThanOrEqual(2);
      const told = app.logs.events('github_cannot_post');
      expect(told).toHaveLength(1);
      expect(told[0].reason).toContain(
        'Neither the GitHub App (APP_ID with PRIVATE_KEY or PRIVATE_KEY_PATH) nor GITHUB_TOKEN is configured',
      );
      expect(writes(stack.gh)).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
