import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { jest } from '@jest/globals';
import type { Page } from 'playwright-core';
import { verifyCommand } from '../../server/verify-command.js';
import { taskOf } from '../executions/support/agent-replies.js';
import { startFakeLlm, type FakeLlm } from '../fakes/fake-llm-server.js';
import { stageModel } from '../workflows/support/stage-model.js';
import { describeInBrowser } from './support/describe-in-browser.js';
import { expectNoProblems, startStudio, type Studio } from './support/studio-harness.js';

jest.setTimeout(90_000);

const SHA = 'b'.repeat(40);

describeInBrowser('studio: workflows', (executablePath) => {
  let llm: FakeLlm;
  let studio: Studio;
  beforeAll(async () => {
    llm = await startFakeLlm();
    studio = await startStudio(executablePath, llm.env());
    // A reviewer whose task says "withhold" does not approve the release.
    llm.otherwise((request) =>
      taskOf(request).startsWith('Hang')
        ? { text: 'too late', delayMs: 60_000 }
        : stageModel({ approve: !taskOf(request).includes('withhold') })(request),
    );
  });
  afterAll(async () => {
    await studio?.close();
    await llm?.close();
  });

  const stage = (page: Page, index: number) => page.locator(`#stages-editor fieldset[data-index="${index}"]`);

  /** Builds a reviewer -> release workflow in the builder and starts it. */
  async function buildReviewedRelease(page: Page, name: string, reviewTask: string) {
    await page.locator('#new-workflow').click();
    await page.locator('#new-workflow-form input[name=name]').fill(name);
    await page.locator('#new-workflow-form input[name=repo_root]').fill('acme/shop');
    await page.locator('#new-workflow-form input[name=commit_sha]').fill(SHA);
    await stage(page, 0).locator('input[name=stage_id]').fill('review');
    await stage(page, 0).locator('input[name=stage_name]').fill('Review');
    await stage(page, 0).locator('select[name=stage_role]').selectOption('reviewer');
    await stage(page, 0).locator('textarea[name=stage_task]').fill(reviewTask);
    await page.locator('#add-stage').click();
    await stage(page, 1).locator('input[name=stage_id]').fill('release');
    await stage(page, 1).locator('input[name=stage_name]').fill('Release');
    await stage(page, 1).locator('select[name=stage_role]').selectOption('release');
    await stage(page, 1).locator('textarea[name=stage_task]').fill('Release v1.2.0.');
    await stage(page, 1).locator('input[name=upstream][value=review]').check();
    await page.locator('#new-workflow-form button[type=submit]').click();
    await page.waitForURL(/#\/workflows\/[0-9a-f-]{36}$/);
  }

  const stageStatus = (page: Page, id: string) => page.locator(`#stages li[data-stage="${id}"] .pill`).textContent();

  it('runs a reviewer + release workflow built in the page to completion; its export passes `shipgate verify`', async () => {
    const operator = await studio.t.user('OPERATOR');
    const { page, problems } = await studio.open();
    await studio.signIn(page, operator.email);
    await page.goto('/studio#/workflows');
    await buildReviewedRelease(page, 'Reviewed release v1.2.0', 'Review the change for release.');

    await page.locator('#workflow-status', { hasText: 'completed' }).waitFor({ timeout: 45_000 });
    expect(await stageStatus(page, 'review')).toBe('completed');
    expect(await stageStatus(page, 'release')).toBe('completed');
    expect(await page.locator('#stages li[data-stage="release"]').textContent()).toContain('after review');

    const download = page.waitForEvent('download');
    await page.locator('#export-workflow').click();
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'studio-export-')), (await download).suggestedFilename());
    await (await download).saveAs(file);
    expect(path.basename(file)).toMatch(/^shipgate-workflow-[0-9a-f-]{36}\.json$/);
    // The page shows how to verify it: fetch the published keys, then `shipgate verify <file> --keys keys.json`
    // (run here in process; the CLI entry point itself is tested in test/certificates).
    const shown = await page.locator('#verify-command').textContent();
    expect(shown).toBe(
      `curl ${studio.baseUrl}/api/v1/compliance/keys > keys.json && shipgate verify ${path.basename(file)} --keys keys.json`,
    );
    const keys = path.join(path.dirname(file), 'keys.json');
    fs.writeFileSync(keys, JSON.stringify((await studio.t.request.get('/api/v1/compliance/keys')).body));
    const out: string[] = [];
    expect(await verifyCommand([file, '--keys', keys], { out: (line) => out.push(line), err: (line) => out.push(line) })).toBe(0);
    expect(out.join('\n')).toMatch(/OK: the package verifies\./);
    expectNoProblems(problems);
  });

  it('shows the release stage blocked with its reason when the reviewer does not approve', async () => {
    const operator = await studio.t.user('OPERATOR');
    const { page, problems } = await studio.open();
    await studio.signIn(page, operator.email);
    await page.goto('/studio#/workflows');
    await buildReviewedRelease(page, 'Withheld release', 'Review the change and withhold approval.');

    await page.locator('#workflow-status', { hasText: 'failed' }).waitFor({ timeout: 45_000 });
    expect(await stageStatus(page, 'review')).toBe('completed');
    expect(await stageStatus(page, 'release')).toBe('blocked');
    expect(await page.locator('#stages li[data-stage="release"] .blocked li').allTextContents()).toEqual(['not_approved:review']);
    expect(await page.locator('#cancel-workflow').count()).toBe(0);
    expectNoProblems(problems);
  });

  it('cancels a running workflow from its page', async () => {
    const operator = await studio.t.user('OPERATOR');
    const { page, problems } = await studio.open();
    await studio.signIn(page, operator.email);
    await page.goto('/studio#/workflows/new');
    await page.locator('#new-workflow-form input[name=name]').fill('Hanging workflow');
    await stage(page, 0).locator('textarea[name=stage_task]').fill('Hang until cancelled.');
    await page.locator('#add-stage').click();
    await stage(page, 1).locator('textarea[name=stage_task]').fill('Never reached.');
    await page.locator('#new-workflow-form button[type=submit]').click();
    await page.locator('#stages li[data-stage="stage-1"] .pill', { hasText: 'running' }).waitFor();
    await page.locator('#cancel-workflow').click();
    await page.locator('#workflow-status', { hasText: 'cancelled' }).waitFor();
    expect(await stageStatus(page, 'stage-1')).toBe('cancelled');
    expect(await stageStatus(page, 'stage-2')).toBe('cancelled');
    expect(await page.locator('main [role=status]').textContent()).toBe('Cancelled stages: stage-1, stage-2.');
    expectNoProblems(problems);
  });
});
