import { jest } from '@jest/globals';
import { describeInBrowser } from './support/describe-in-browser.js';
import { expectNoProblems, startStudio, type Studio } from './support/studio-harness.js';

jest.setTimeout(60_000);

const REPO = 'acme/nothing-recorded';
const SHA = '02402c1f0c7e5a3b9d8e7f6a5b4c3d2e1f0a9b8c';
/** The OPERATOR's test uploads evidence: its own commit, so the VIEWER's still has none whichever runs first. */
const UPLOAD_SHA = '7a11e0c5d4b3a29180f7e6d5c4b3a2918f7e6d5c';

describeInBrowser('studio: the release page is titled by its decision, and "no evidence" lists each missing evidence', (executablePath) => {
  let studio: Studio;
  beforeAll(async () => {
    studio = await startStudio(executablePath);
    await studio.t.request
      .put(`/api/v1/releases/gates/${REPO}`)
      .set(studio.t.admin.auth)
      .send({ required_evidence: ['sbom', 'tests'], require_reviewed_release: false })
      .expect(201);
  });
  afterAll(async () => {
    await studio?.close();
  });

  it('titles the tab "NO_SHIP acme/nothing-recorded@02402c1 · shipgate" and lists each missing evidence to a VIEWER', async () => {
    const viewer = await studio.t.user('VIEWER');
    const { page, problems } = await studio.open();
    await page.goto(`/studio#/releases/${REPO}/${SHA}`);
    await studio.signIn(page, viewer.email, { navigate: false });
    await page.locator('#decision', { hasText: 'NO_SHIP' }).waitFor();
    expect(await page.title()).toBe(`NO_SHIP ${REPO}@02402c1 · shipgate`);
    // A VIEWER reads what is missing, without upload buttons.
    const items = page.locator('li.blocker[data-code="no_evidence"] .missing-evidence li');
    expect(await items.allTextContents()).toEqual([
      'Upload the evidence “sbom” for this commit.',
      'Upload the evidence “tests” for this commit.',
    ]);
    expect(await page.locator('#blockers button.upload-evidence').count()).toBe(0);
    expectNoProblems(problems);
  });

  it('an OPERATOR gets one "Upload evidence" per missing name, the form prefilled with it; uploading clears the blocker', async () => {
    const operator = await studio.t.user('OPERATOR');
    const { page, problems } = await studio.open();
    await page.goto(`/studio#/releases/${REPO}/${UPLOAD_SHA}`);
    await studio.signIn(page, operator.email, { navigate: false });
    await page.locator('#decision', { hasText: 'NO_SHIP' }).waitFor();
    const blocker = page.locator('li.blocker[data-code="no_evidence"]');
    expect(await blocker.locator('button.upload-evidence').count()).toBe(2);
    const form = page.locator('#evidence-upload');
    const upload = async (name: string) => {
      await form.waitFor();
      expect(await form.getByLabel('Name').inputValue()).toBe(name);
      await form.getByLabel('Kind').fill(name);
      await form.getByLabel('Status').selectOption('passed');
      await form.locator('#upload-evidence-submit').click();
      await page.locator('#decision').waitFor();
    };
    await blocker.getByRole('button', { name: 'Upload evidence tests' }).click();
    await upload('tests');
    // Something is recorded now: the gate's own blocker names what is still missing.
    const missing = page.locator('li.blocker[data-code="required_evidence_missing"]');
    await missing.waitFor();
    expect(await page.locator('li.blocker[data-code="no_evidence"]').count()).toBe(0);
    await missing.getByRole('button', { name: 'Upload evidence' }).click();
    await upload('sbom');
    // The test project has no DOM types.
    await page.waitForFunction(() => (globalThis as unknown as { document: { title: string } }).document.title.startsWith('SHIP '));
    expect(await page.title()).toBe(`SHIP ${REPO}@7a11e0c · shipgate`);
    expect(await page.locator('#blockers').textContent()).toBe('No blockers.');
    expectNoProblems(problems);
  });
});
