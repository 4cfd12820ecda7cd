import { checkRunPayload, examplePayload, pullRequestPayload, writes } from '../support/github-deliveries.js';
import { useAppWithFakeGitHub } from './support/app-with-fake-github.js';

const NAME = 'shipgate / release gate';
const GATE = 'required_checks: [ci]\nrequire_reviewed_release: false\n';

const stack = useAppWithFakeGitHub({ secret: 'posting-secret', installationId: 77, gate: GATE });
const { repository, send } = stack;
let runIds = 9000;

const ci = (repo: string, sha: string, action: 'created' | 'completed', conclusion = 'success') =>
  send('check_run', checkRunPayload(action, { id: runIds++, name: 'ci', sha, conclusion }, repo));

// Each test opens its pull request in a repository of its own, so the tests pass alone and in any order.
async function openPullRequest(repo: string, number: number, sha: string, gate?: string) {
  repository(repo, gate);
  return send('pull_request', pullRequestPayload('opened', { number, sha }, repo));
}

describe('one comment and one check run per pull request', () => {
  const head = 'b'.repeat(40);
  const next = 'c'.repeat(40);

  it('PR opened -> one comment and one check run, authenticated as the installation', async () => {
    const repo = 'acme/posting-opened';
    repository(repo);
    stack.gh.requests.length = 0;
    expect(await send('pull_request', pullRequestPayload('opened', { number: 5, sha: head }, repo))).toEqual({ status: 'queued' });
    const [run] = stack.gh.app.checkRunsOn(repo, head);
    expect(stack.gh.app.checkRunsOn(repo, head)).toHaveLength(1);
    // Nothing has run yet: time can clear that, so the check waits instead of failing.
    expect(run).toMatchObject({
      name: NAME,
      status: 'in_progress',
      conclusion: null,
      output: { title: 'Waiting for check runs or evidence' },
    });
    expect(run.details_url).toBe(`https://shipgate.example/studio#/releases/${repo}/${head}`);
    expect(run.output.summary).toContain('| `no_evidence` | commit |');
    expect(run.output.summary).toContain('Baseline: no attested release of this repository yet.');
    expect(run.output.summary).toContain(`[View the decision](https://shipgate.example/studio#/releases/${repo}/${head})`);
    const comments = stack.gh.app.commentsOn(repo, 5);
    expect(comments).toHaveLength(1);
    expect(comments[0].body).toContain('<!-- shipgate:release-gate -->');
    expect(comments[0].body).toContain('**Decision: NO_SHIP**');
    // Posting used the installation token of installation 77 (the fake GitHub issues it only from
    // POST /app/installations/77/access_tokens; Probot may hold it from an earlier test).
    const posted = stack.gh.requests.filter((r) => r.path === `/repos/${repo}/check-runs`);
    expect(posted.map((r) => r.headers.authorization)).toEqual(['token ghs_installation_77']);
  });

  it('a pending required check -> in_progress; completed -> the same comment and check run updated to SHIP', async () => {
    const repo = 'acme/posting-pending';
    await openPullRequest(repo, 5, head);
    await ci(repo, head, 'created');
    const [waiting] = stack.gh.app.checkRunsOn(repo, head);
    expect([waiting.status, waiting.conclusion, waiting.output.title]).toEqual(['in_progress', null, 'Waiting for ci']);
    await ci(repo, head, 'completed');
    const runs = stack.gh.app.checkRunsOn(repo, head);
    expect(runs).toHaveLength(1);
    expect([runs[0].id, runs[0].status, runs[0].conclusion, runs[0].output.title]).toEqual([waiting.id, 'completed', 'success', 'SHIP']);
    const comments = stack.gh.app.commentsOn(repo, 5);
    expect(comments).toHaveLength(1);
    expect(comments[0].body).toContain('**Decision: SHIP**');
    expect(comments[0].body).toContain('Every requirement of the gate is met.');
  });

  it('an unchanged re-evaluation writes nothing to GitHub', async () => {
    const repo = 'acme/posting-unchanged';
    await openPullRequest(repo, 5, head);
    await ci(repo, head, 'completed');
    stack.gh.requests.length = 0;
    expect(await send('check_suite', { ...examplePayload('check_suite', 'rerequested', repo), check_suite: { head_sha: head } })).toEqual({
      status: 'queued',
    });
    expect(stack.gh.requests.some((r) => r.path.endsWith('/check-runs') && r.method === 'GET')).toBe(true);
    expect(writes(stack.gh)).toEqual([]);
  });

  it('a new push -> a new check run for the new head, still one comment', async () => {
    const repo = 'acme/posting-push';
    await openPullRequest(repo, 5, head);
    await send('pull_request', pullRequestPayload('synchronize', { number: 5, sha: next }, repo));
    expect(stack.gh.app.checkRunsOn(repo, next)).toHaveLength(1);
    expect(stack.gh.app.checkRunsOn(repo, head)).toHaveLength(1);
    const comments = stack.gh.app.commentsOn(repo, 5);
    expect(comments).toHaveLength(1);
    expect(comments[0].body).toContain(next.slice(0, 12));
  });

  it('a check run finishing on the old head after the push does not touch the comment', async () => {
    const repo = 'acme/posting-old-head';
    await openPullRequest(repo, 5, head);
    await send('pull_request', pullRequestPayload('synchronize', { number: 5, sha: next }, repo));
    const before = stack.gh.app.commentsOn(repo, 5)[0].body;
    await ci(repo, head, 'completed', 'failure');
    expect(stack.gh.app.commentsOn(repo, 5)[0].body).toBe(before);
  });

  it("leaves a comment someone else wrote with the App's marker alone, and posts and keeps its own", async () => {
    const repo = 'acme/posting-forged-marker';
    repository(repo);
    const sha = 'f'.repeat(40);
    // Anyone may write the hidden marker; the App, allowed to edit every comment, filled this one with its report before.
    const forged = stack.gh.app.addComment(repo, 11, '<!-- shipgate:release-gate -->\n**Decision: SHIP**', 'agent-account');
    await send('pull_request', pullRequestPayload('opened', { number: 11, sha }, repo));
    await ci(repo, sha, 'completed');
    const comments = stack.gh.app.commentsOn(repo, 11);
    expect(comments).toHaveLength(2);
    expect(comments[0]).toMatchObject({ id: forged.id, body: '<!-- shipgate:release-gate -->\n**Decision: SHIP**' });
    expect(comments[1]).toMatchObject({ user: 'shipgate[bot]', app_id: stack.gh.app.appId });
    expect(comments[1].body).toContain('**Decision: SHIP**');
    expect(writes(stack.gh).filter((w) => w.includes(`/issues/comments/${forged.id}`))).toEqual([]);
  });

  it('a pull request with 150 comments still gets no second comment (found on page 2)', async () => {
    const repo = 'acme/posting-pages';
    repository(repo);
    const sha = 'd'.repeat(40);
    for (let i = 0; i < 120; i += 1) stack.gh.app.addComment(repo, 9, `comment ${i}`);
    await send('pull_request', pullRequestPayload('opened', { number: 9, sha }, repo));
    for (let i = 120; i < 150; i += 1) stack.gh.app.addComment(repo, 9, `comment ${i}`);
    expect(stack.gh.app.commentsOn(repo, 9).filter((c) => c.body.includes('shipgate:release-gate'))).toHaveLength(1);
    stack.gh.requests.length = 0;
    await ci(repo, sha, 'completed');
    const ours = stack.gh.app.commentsOn(repo, 9).filter((c) => c.body.includes('shipgate:release-gate'));
    expect(ours).toHaveLength(1);
    expect(ours[0].body).toContain('**Decision: SHIP**');
    const pages = stack.gh.requests.filter((r) => r.method === 'GET' && r.path === `/repos/${repo}/issues/9/comments`);
    expect(pages.map((r) => r.query.get('page') ?? '1')).toEqual(['1', '2']);
    expect(writes(stack.gh)).toEqual(
      [
        `PATCH /repos/${repo}/issues/comments/${ours[0].id}`,
        `PATCH /repos/${repo}/check-runs/${stack.gh.app.checkRunsOn(repo, sha)[0].id}`,
      ].reverse(),
    );
  });
});

describe('re-checks and our own check run', () => {
  const head = 'e'.repeat(40);
  const LINT_GATE = 'required_checks: [lint]\nrequire_reviewed_release: false\n';

  // NO_SHIP here waits for the required check `ci` (it never runs), so the check run stays in progress.
  const outcome = (repo: string) => stack.gh.app.checkRunsOn(repo, head)[0].conclusion ?? stack.gh.app.checkRunsOn(repo, head)[0].status;

  it('events about our own check run are ignored and cause nothing', async () => {
    const repo = 'acme/rechecks-own';
    await openPullRequest(repo, 2, head);
    const [ours] = stack.gh.app.checkRunsOn(repo, head);
    stack.gh.requests.length = 0;
    const created = checkRunPayload('created', { id: ours.id, name: NAME, sha: head, appId: stack.gh.app.appId }, repo);
    expect(await send('check_run', created)).toEqual({
      status: 'ignored',
      reason: 'Events about shipgate’s own check run are not evidence.',
    });
    const completed = checkRunPayload('completed', { id: ours.id, name: NAME, sha: head, appId: stack.gh.app.appId }, repo);
    expect((await send('check_run', completed)).status).toBe('ignored');
    expect(stack.gh.requests).toEqual([]);
    const { rows } = await stack.t.database.db.raw('SELECT count(*)::int AS n FROM evidence WHERE name = ?', [NAME]);
    expect(rows[0].n).toBe(0);
  });

  it('"Re-run" of our check run and "Re-run all checks" re-evaluate (and pick up the gate file)', async () => {
    const repo = 'acme/rechecks-rerun';
    await openPullRequest(repo, 2, head);
    expect(outcome(repo)).toBe('in_progress');
    stack.gh.repos.commit(repo, { files: { '.github/shipgate.yml': 'required_checks: []\nrequire_reviewed_release: false\n' } });
    await send('check_run', checkRunPayload('completed', { id: runIds++, name: 'lint', sha: head }, repo));
    expect(stack.gh.app.checkRunsOn(repo, head)[0].conclusion).toBe('success');

    stack.gh.repos.commit(repo, { files: { '.github/shipgate.yml': GATE } });
    const [ours] = stack.gh.app.checkRunsOn(repo, head);
    const rerun = checkRunPayload('rerequested', { id: ours.id, name: NAME, sha: head, appId: stack.gh.app.appId }, repo);
    expect(await send('check_run', rerun)).toEqual({ status: 'queued' });
    expect(outcome(repo)).toBe('in_progress');

    stack.gh.repos.commit(repo, { files: { '.github/shipgate.yml': LINT_GATE } });
    const suite = { ...examplePayload('check_suite', 'rerequested', repo), check_suite: { head_sha: head } };
    expect(await send('check_suite', suite)).toEqual({ status: 'queued' });
    expect(stack.gh.app.checkRunsOn(repo, head)[0].conclusion).toBe('success');
  });

  it('`/shipgate recheck` by a writer re-evaluates; by a reader it does nothing', async () => {
    // Shipping under a gate that requires `lint`; then the gate file starts requiring `ci`.
    const repo = 'acme/rechecks-comment';
    await openPullRequest(repo, 2, head, LINT_GATE);
    await send('check_run', checkRunPayload('completed', { id: runIds++, name: 'lint', sha: head }, repo));
    expect(outcome(repo)).toBe('success');
    stack.gh.repos.commit(repo, { files: { '.github/shipgate.yml': GATE } });
    stack.gh.app.setPullRequest(repo, { number: 2, head_sha: head, head_ref: 'feature-2', base_ref: 'main', state: 'open' });
    stack.gh.app.permissions.set('reader', 'read');
    stack.gh.app.permissions.set('writer', 'write');
    const comment = (login: string) => {
      const payload = examplePayload('issue_comment', 'created', repo);
      payload.issue = { ...payload.issue, number: 2, pull_request: { url: `https://api.github.com/repos/${repo}/pulls/2` } };
      payload.comment = { ...payload.comment, body: 'please\n/shipgate recheck\n', user: { ...payload.comment.user, login, type: 'User' } };
      return payload;
    };
    stack.gh.requests.length = 0;
    expect(await send('issue_comment', comment('reader'))).toEqual({ status: 'queued' });
    expect(stack.gh.requests.map((r) => `${r.method} ${r.path}`).filter((p) => !p.includes('/app/'))).toEqual([
      `GET /repos/${repo}/collaborators/reader/permission`,
    ]);
    expect(stack.gh.app.checkRunsOn(repo, head)[0].conclusion).toBe('success');

    await send('issue_comment', comment('writer'));
    expect(outcome(repo)).toBe('in_progress');
    expect(stack.gh.app.commentsOn(repo, 2).filter((c) => c.body.includes('shipgate:release-gate'))).toHaveLength(1);

    const plain = comment('writer');
    plain.comment.body = 'LGTM';
    expect(await send('issue_comment', plain)).toEqual({ status: 'ignored', reason: 'The comment holds no /shipgate recheck command.' });
  });
});
