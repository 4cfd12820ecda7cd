import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { claudePost, claudePre, decisionOf, hookPolicy, postHook } from '../hooks/support/hook-fixture.js';
import { storeReadPullRequest } from '../release/support/stored-pull-request.js';
import { putGate, sha } from '../support/release-api.js';
import type { TestUser } from '../support/test-app.js';
import { seriousViolations, withAxe } from './support/axe.js';
import { describeInBrowser } from './support/describe-in-browser.js';
import { expectNoProblems, startStudio, type Studio } from './support/studio-harness.js';

jest.setTimeout(90_000);

const REPO = `acme/session-calls-${randomUUID().slice(0, 8)}`;
const HEAD = sha(`${REPO}-head`);
const BRANCH = 'copilot/fix-7';
const PUSH = `git push origin HEAD:${BRANCH}`;
const COPILOT = { login: 'Copilot', type: 'Bot' as const, name: 'Copilot', email: '198982749+Copilot@users.noreply.github.com' };

// docs/studio.md, "#/releases/<owner>/<repo>/<sha>" (agent sessions); docs/agent-hooks.md, "Governed pushes".
describeInBrowser('studio: the release page shows the calls of the agent session that pushed the commit', (executablePath) => {
  let studio: Studio;
  let approver: TestUser;
  let sessionId: string;

  /** The held call of the session, once approvers see it. */
  async function heldCall(): Promise<string> {
    for (let i = 0; i < 100; i++) {
      const pending = (await studio.t.request.get('/api/v1/agent-calls/pending').set(approver.auth).expect(200)).body as {
        id: string;
        execution_id: string;
      }[];
      const mine = pending.find((p) => p.execution_id === sessionId);
      if (mine) return mine.id;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the call was never held');
  }

  beforeAll(async () => {
    studio = await startStudio(executablePath);
    const t = studio.t;
    approver = await t.user('APPROVER', 'ana.approver@example.com');
    await putGate(t, REPO, { required_checks: [] });
    // A denied call is a warning under this policy, so the session still governs what it pushed.
    const policy = await hookPolicy(t, { ask_timeout_seconds: 60, denied_call_severity: 'warning' });
    const opened = await t.request
      .post('/api/v1/agent-sessions')
      .set(t.admin.auth)
      .send({ name: 'claude fixes the build', repo_root: REPO, branch: BRANCH, servers: [], compliance_policy: policy })
      .expect(201);
    sessionId = opened.body.id;
    const hook = (body: unknown) => postHook(t, 'claude-code', opened.body.token, body).expect(200);
    const allowed = async (pre: ReturnType<typeof claudePre>, response: unknown) => {
      expect(decisionOf(await hook(pre)).decision).toBe('allow');
      await hook(claudePost(pre, response));
    };

    await allowed(claudePre('Bash', { command: 'npm test' }), { stdout: '12 passed' });
    expect(decisionOf(await hook(claudePre('Bash', { command: 'cat .env' }))).decision).toBe('deny');
    await allowed(claudePre('Write', { file_path: '/work/acme-shop/src/app.ts', content: 'export {};' }), { type: 'update' });
    await allowed(claudePre('Read', { file_path: '/work/acme-shop/README.md' }, { agent_id: 'reviewer-1' }), { type: 'text' });
    // A workflow write is held until an APPROVER approves it.
    const workflow = claudePre('Write', { file_path: '/work/acme-shop/.github/workflows/ci.yml', content: 'on: push' });
    const answer = hook(workflow).then((res) => res);
    await t.request
      .post(`/api/v1/agent-calls/${await heldCall()}/approve`)
      .set(approver.auth)
      .send({})
      .expect(200);
    expect(decisionOf(await answer).decision).toBe('allow');
    await hook(claudePost(workflow, { type: 'create' }));
    // Another is denied by the APPROVER, in their words.
    const release = hook(claudePre('Write', { file_path: '/work/acme-shop/.github/workflows/release.yml', content: 'on: push' })).then(
      (res) => res,
    );
    await t.request
      .post(`/api/v1/agent-calls/${await heldCall()}/deny`)
      .set(approver.auth)
      .send({ reason: 'not during the freeze' })
      .expect(200);
    expect(decisionOf(await release).decision).toBe('deny');
    // The push: GitHub's push delivery arrives while the call runs.
    const push = claudePre('Bash', { command: PUSH });
    expect(decisionOf(await hook(push)).decision).toBe('allow');
    await t.database.db('commit_arrivals').insert({
      repo_root: REPO,
      commit_sha: HEAD,
      branch: BRANCH,
      arrived_at: new Date(),
      delivery_id: `push-${REPO}`,
    });
    await hook(claudePost(push, { stdout: '', stderr: `To github.com:${REPO}.git` }));
    // The agent stopped while this one ran: its post never came.
    expect(decisionOf(await hook(claudePre('Bash', { command: 'npm run deploy' }))).decision).toBe('allow');
    await storeReadPullRequest(t.database.db, REPO, {
      number: 7,
      head: HEAD,
      author: 'Copilot',
      authorType: 'Bot',
      commit: { author: COPILOT, committer: { login: 'web-flow', type: 'User', name: 'GitHub', email: 'noreply@github.com' } },
    });
  });
  afterAll(async () => {
    await studio?.close();
  });

  async function releasePage(email: string) {
    const { context, page, problems } = await studio.open();
    await withAxe(context);
    await page.goto(`/studio#/releases/${REPO}/${HEAD}`);
    await studio.signIn(page, email, { navigate: false });
    await page.locator('#decision').waitFor();
    return { page, problems };
  }

  it('an ADMIN sees every call: the commands, the denial with its reason, the approval with its approver, the push marked', async () => {
    const { page, problems } = await releasePage(studio.t.admin.email);
    const session = page.locator(`#agent-sessions section[data-execution-id="${sessionId}"]`);
    await session.waitFor();
    expect(await session.locator('h3').textContent()).toContain('claude fixes the build');
    expect(await session.locator('.session-summary').textContent()).toBe(
      '2 commands run, 1 file read (README.md), 2 files written (src/app.ts, .github/workflows/ci.yml), 2 denied, 1 approved by a person.',
    );

    const rows = session.locator('tbody tr');
    const row = async (seq: number) => (await session.locator(`tbody tr[data-seq="${seq}"]`).innerText()).replace(/\s+/g, ' ');
    expect(await rows.count()).toBe(7);
    expect(await row(1)).toMatch(/npm test allowed allowed by policy/);
    expect(await row(2)).toContain('cat .env denied denied: tool_rule:1 (rule read .env* -> deny) on shell:exec');
    expect(await row(3)).toMatch(/writes src\/app\.ts allowed/);
    expect(await row(4)).toMatch(/Read sub-agent reviewer-1 reads README\.md allowed/);
    expect(await row(5)).toMatch(/writes \.github\/workflows\/ci\.yml allowed approved by ana\.approver/);
    expect(await row(6)).toContain(
      'writes .github/workflows/release.yml denied denied: denied_by_approver on fs:write:.github/workflows/release.yml by ana.approver: not during the freeze',
    );
    expect(await session.locator('tbody tr[data-seq="6"] .denial q').textContent()).toBe('not during the freeze');
    expect(await row(7)).toContain(`${PUSH} allowed allowed by policy · pushed ${HEAD.slice(0, 12)} (this commit)`);
    // Only the pushing call is marked.
    expect(await session.locator('tr.pushed-call').getAttribute('data-seq')).toBe('7');
    expect(await session.locator('tr.pushed-call .pushed-mark').textContent()).toBe(` · pushed ${HEAD.slice(0, 12)} (this commit)`);

    expect(await session.locator('.incomplete-calls li').allTextContents()).toEqual([
      'Bash npm run deploy (no post hook: no certificate covers it)',
    ]);

    expect(await seriousViolations(page, 'release page with agent session calls')).toEqual([]);
    expectNoProblems(problems);
  });

  it('at 390 px each call stacks under its column names, without sideways scrolling', async () => {
    const { page, problems } = await releasePage(studio.t.admin.email);
    await page.setViewportSize({ width: 390, height: 800 });
    const pushed = page.locator('#agent-sessions tr.pushed-call');
    await pushed.waitFor();
    expect(await pushed.locator('td[data-label="What"]').textContent()).toBe(PUSH);
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    expectNoProblems(problems);
  });

  it('a VIEWER, who may not read the session, is told who may, and still sees the call that pushed the commit as the decision names it', async () => {
    const viewer = await studio.t.user('VIEWER', 'vic.viewer@example.com');
    const { page, problems } = await releasePage(viewer.email);
    const session = page.locator(`#agent-sessions section[data-execution-id="${sessionId}"]`);
    await session.waitFor();
    expect(await session.locator('p').textContent()).toBe('Its calls are shown to the session’s owner, ADMIN and AUDITOR.');
    // The decision's own words on the push stay: every reader of the decision may see them.
    expect(await session.locator('.session-pushes li').allTextContents()).toEqual([
      `call 7 ${PUSH} pushed ${HEAD.slice(0, 12)} (this commit)`,
    ]);
    expect(await session.locator('tbody tr').count()).toBe(0);
    expect(await seriousViolations(page, 'release page, session not readable')).toEqual([]);
    expectNoProblems(problems);
  });
});
