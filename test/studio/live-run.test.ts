import { jest } from '@jest/globals';
import type { Page } from 'playwright-core';
import { taskOf, toolAnswers } from '../executions/support/agent-replies.js';
import { startFakeLlm, type FakeLlm, type FakeReply } from '../fakes/fake-llm-server.js';
import { describeInBrowser } from './support/describe-in-browser.js';
import { expectNoProblems, startStudio, type Studio } from './support/studio-harness.js';

jest.setTimeout(60_000);

/** A reply the test hands over when it chooses, so the page can be watched between steps. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describeInBrowser('studio: a live governed run', (executablePath) => {
  let llm: FakeLlm;
  let studio: Studio;
  const steps = [gate(), gate(), gate()];
  beforeAll(async () => {
    llm = await startFakeLlm();
    studio = await startStudio(executablePath, llm.env());
    llm.otherwise(async (request): Promise<FakeReply> => {
      if (taskOf(request).startsWith('Hang')) return { text: 'never delivered', delayMs: 60_000 };
      const step = toolAnswers(request);
      await steps[step].opened;
      if (step === 0) return { toolCalls: [{ name: 'write_report', arguments: JSON.stringify({ name: 'notes', content: 'All good.' }) }] };
      if (step === 1) return { toolCalls: [{ name: 'repo_read_file', arguments: JSON.stringify({ path: 'secrets.env' }) }] };
      return { text: 'Done: one report written, one read refused.' };
    });
  });
  afterAll(async () => {
    await studio?.close();
    await llm?.close();
  });

  const status = (page: Page) => page.locator('#execution-status').textContent();
  const call = (page: Page, seq: number) => page.locator(`#tool-calls li[data-seq="${seq}"]`);

  async function startTask(page: Page, task: string, permissions: string) {
    await page.locator('#new-task').click();
    await page.locator('#new-task-form textarea[name=task]').fill(task);
    await page.locator('#new-task-form input[name=permissions]').fill(permissions);
    await page.locator('#new-task-form button[type=submit]').click();
    await page.waitForURL(/#\/executions\/[0-9a-f-]{36}$/);
  }

  it('shows the run as it happens: an allowed call, then a denied one with its reason, then status, verdict and certificates', async () => {
    const operator = await studio.t.user('OPERATOR');
    const { page, problems } = await studio.open();
    await studio.signIn(page, operator.email);
    await startTask(page, 'Write a report, then try to read a file.', 'document:write:reports');

    await page.locator('#execution-status', { hasText: 'running' }).waitFor();
    expect(await page.locator('#tool-calls').count()).toBe(0);

    steps[0].open();
    await call(page, 1).waitFor();
    expect(await call(page, 1).locator('.pill').textContent()).toBe('allowed');
    expect(await call(page, 1).locator('.tool').textContent()).toBe('write_report');
    expect(await call(page, 2).count()).toBe(0);
    expect(await status(page)).toBe('running');

    steps[1].open();
    await call(page, 2).waitFor();
    expect(await call(page, 2).locator('.pill').textContent()).toBe('denied');
    expect(await call(page, 2).locator('.reason').textContent()).toContain('capability_not_granted');
    expect(await status(page)).toBe('running');

    steps[2].open();
    await page.locator('#execution-status', { hasText: 'completed' }).waitFor();
    // The default policy counts denied calls as warnings: still compliant.
    expect(await page.locator('#execution-verdict').textContent()).toBe('compliant');
    expect(await page.locator('#execution-output').textContent()).toBe('Done: one report written, one read refused.');
    const kinds = await page.locator('table.grid tbody tr td:first-child').allTextContents();
    expect(kinds).toEqual(['tool_call', 'execution']);
    expect(await page.locator('#cancel-execution').count()).toBe(0);

    const download = page.waitForEvent('download');
    await page.locator('#download-audit').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^shipgate-execution-[0-9a-f-]{36}\.json$/);
    expectNoProblems(problems);
  });

  it('cancels a run that hangs: the page shows it cancelled and the provider call is aborted', async () => {
    const operator = await studio.t.user('OPERATOR');
    const { page, problems } = await studio.open();
    await studio.signIn(page, operator.email);
    const aborted = llm.whenAborted();
    await startTask(page, 'Hang until cancelled.', '');
    await page.locator('#execution-status', { hasText: 'running' }).waitFor();
    await page.locator('#cancel-execution').click();
    await page.locator('#execution-status', { hasText: 'cancelled' }).waitFor();
    expect(taskOf(await aborted)).toBe('Hang until cancelled.');
    expect(await page.locator('#cancel-execution').count()).toBe(0);
    expectNoProblems(problems);
  });

  it('shows the server’s refusal of a task whose permissions exceed its policy, naming each denied permission', async () => {
    const operator = await studio.t.user('OPERATOR');
    const { page, problems } = await studio.open();
    await studio.signIn(page, operator.email);
    await page.locator('#new-task').click();
    await page.locator('#new-task-form textarea[name=task]').fill('Fetch the changelog.');
    await page.locator('#new-task-form select[name=compliance_policy]').selectOption('hipaa');
    await page.locator('#new-task-form input[name=permissions]').fill('repo:read, network:http:get');
    await page.locator('#new-task-form button[type=submit]').click();
    const refusal = page.locator('#new-task-form [role=alert]');
    await refusal.waitFor();
    expect(await refusal.locator('p').textContent()).toBe("Requested permissions exceed the ceiling of policy 'hipaa'");
    expect(await refusal.locator('li').first().textContent()).toMatch(/^network:http:get: forbidden_by_policy/);
    expect(page.url()).toMatch(/#\/executions\/new$/);
    expectNoProblems(problems);
  });
});
