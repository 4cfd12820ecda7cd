import { jest } from '@jest/globals';
import { toolAnswers } from '../executions/support/agent-replies.js';
import { waitFor } from '../executions/support/wait-for.js';
import { startFakeLlm, type FakeLlm } from '../fakes/fake-llm-server.js';
import { describeInBrowser } from './support/describe-in-browser.js';
import { expectNoProblems, startStudio, type Studio } from './support/studio-harness.js';

jest.setTimeout(60_000);

const HOSTILE = '<img src=x onerror="window.__pwned = 1"><script>window.__pwned = 2</script> done';
const SHA = 'a'.repeat(40);

describeInBrowser('studio: roles and untrusted text', (executablePath) => {
  let llm: FakeLlm;
  let studio: Studio;
  let executionId: string;
  let workflowId: string;
  beforeAll(async () => {
    llm = await startFakeLlm();
    studio = await startStudio(executablePath, llm.env());
    // The model answers with markup; the task and its tool arguments carry markup too.
    llm.otherwise((request) =>
      toolAnswers(request) === 0
        ? { toolCalls: [{ name: 'write_report', arguments: JSON.stringify({ name: '<img src=x onerror=alert(1)>', content: HOSTILE }) }] }
        : { text: HOSTILE },
    );
    const created = await studio.t.request
      .post('/api/v1/tasks')
      .set(studio.t.admin.auth)
      .send({ task: 'Summarise <b>this</b> <script>window.__pwned = 3</script>', repo_root: 'acme/shop', commit_sha: SHA });
    executionId = created.body.id;
    const workflow = await studio.t.request
      .post('/api/v1/workflows')
      .set(studio.t.admin.auth)
      .send({ name: 'One <i>stage</i>', stages: [{ id: 'only', name: '<img src=x>', task: 'Summarise it.' }] });
    workflowId = workflow.body.id;
    await waitFor(
      async () => (await studio.t.request.get(`/api/v1/executions/${executionId}`).set(studio.t.admin.auth)).body.status,
      (status) => status === 'completed',
      20_000,
    );
  });
  afterAll(async () => {
    await studio?.close();
    await llm?.close();
  });

  it('shows model output, tasks and tool arguments with markup as literal text, and runs none of it', async () => {
    const { page, problems } = await studio.open();
    await studio.signIn(page, studio.t.admin.email);
    await page.goto(`/studio#/executions/${executionId}`);
    await page.locator('#execution-output').waitFor();
    expect(await page.locator('#execution-output').textContent()).toBe(HOSTILE);
    await page.locator('#tool-calls details summary').first().click();
    expect(await page.locator('#tool-calls pre').first().textContent()).toContain('<img src=x onerror=alert(1)>');
    expect(await page.locator('main').textContent()).toContain('Summarise <b>this</b> <script>window.__pwned = 3</script>');
    expect(await page.locator('main img, main script, main b').count()).toBe(0);
    expect(await page.evaluate('window.__pwned')).toBeUndefined();

    await page.goto(`/studio#/workflows/${workflowId}`);
    await page.locator('#workflow-status', { hasText: 'completed' }).waitFor();
    expect(await page.locator('h1').textContent()).toBe('One <i>stage</i>');
    expect(await page.locator('#stages li[data-stage="only"]').textContent()).toContain('<img src=x>');
    expect(await page.locator('#stages .summary').textContent()).toBe(HOSTILE);
    expect(await page.locator('main img, main script, main i').count()).toBe(0);
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    expectNoProblems(problems);
  });

  it('hides "new task" and "promote" from a VIEWER (and the server still refuses them)', async () => {
    const viewer = await studio.t.user('VIEWER');
    const { page, problems } = await studio.open();
    await studio.signIn(page, viewer.email);
    await page.locator('h1', { hasText: 'Executions' }).waitFor();
    expect(await page.locator('#new-task').count()).toBe(0);
    await page.goto(`/studio#/releases/acme/shop/${SHA}`);
    await page.locator('#decision').waitFor();
    expect(await page.locator('#promote-form, #promote').count()).toBe(0);
    expect(await page.getByText('Promote', { exact: true }).count()).toBe(0);

    const approver = await studio.t.user('APPROVER');
    const { page: approverPage } = await studio.open();
    await studio.signIn(approverPage, approver.email);
    await approverPage.goto(`/studio#/releases/acme/shop/${SHA}`);
    await approverPage.locator('#promote-form').waitFor();
    expect(await approverPage.locator('#new-task').count()).toBe(0);
    expect((await studio.t.request.post('/api/v1/tasks').set(viewer.auth).send({ task: 'x' })).status).toBe(403);
    expectNoProblems(problems);
  });

  it('stays on its own origin with no console error or CSP violation on any page', async () => {
    const { page, problems } = await studio.open();
    await studio.signIn(page, studio.t.admin.email);
    const pages: [string, string][] = [
      ['#/executions', 'Executions'],
      ['#/executions?status=completed&scope=all', 'Executions'],
      ['#/executions/new', 'New task'],
      [`#/executions/${executionId}`, 'Execution'],
      ['#/workflows', 'Workflows'],
      ['#/workflows/new', 'New workflow'],
      [`#/workflows/${workflowId}`, 'One <i>stage</i>'],
      ['#/releases', 'Releases'],
      [`#/releases/acme/shop/${SHA}`, 'acme/shop @ aaaaaaaaaaaa'],
      ['#/policies', 'Policies'],
      ['#/policies/sox', 'Policy sox v1'],
      ['#/account', 'Account'],
      ['#/no-such-page', 'Not found'],
    ];
    for (const [hash, heading] of pages) {
      // Same-document navigations (deep links and refreshes are covered by the sign-in and release tests).
      await page.goto(`/studio${hash}`);
      await page.locator('h1', { hasText: heading }).first().waitFor();
    }
    await page.waitForLoadState('networkidle');
    expectNoProblems(problems);
  });
});
