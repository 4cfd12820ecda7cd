import { jest } from '@jest/globals';
import type { Page } from 'playwright-core';
import { checkRun } from '../support/release-api.js';
import { describeInBrowser } from './support/describe-in-browser.js';
import { expectNoProblems, startStudio, type Studio } from './support/studio-harness.js';

jest.setTimeout(90_000);

const REPO = 'acme/layout';
const SHA = '5d41402abc4b2a76b9719d911017c592ae2b2f1e';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const REPORT = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites tests="3" failures="1">\n  <testsuite name="cart" tests="3" failures="1">\n' +
    '    <testcase classname="cart" name="adds an item"/>\n    <testcase classname="cart" name="removes an item"/>\n' +
    '    <testcase classname="cart" name="totals the discount"><failure message="expected 10, got 12">Error</failure></testcase>\n' +
    '  </testsuite>\n</testsuites>\n',
);

/**
 * Browser-side: each word of the matched elements' text that is split across two lines (as in
 * "passe|d" or "Nam|e"), found by measuring the word's own line boxes. The test project has no DOM
 * types, so the function travels as text.
 */
const brokenWords = (selector: string) => `(() => {
  const broken = [];
  for (const el of document.querySelectorAll(${JSON.stringify(selector)})) {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(word[0]);
      }
    }
  }
  return broken;
})()`;

/** Browser-side: per row of each grid table, the distinct left edges of its shown cells, with each cell's label and its column's header. */
const rowLayout = `[...document.querySelectorAll('#page table.grid')].flatMap((table) => {
  const headers = [...table.querySelectorAll('thead th')].map((th) => th.textContent);
  return [...table.querySelectorAll('tbody tr')].map((tr) => {
    const cells = [...tr.children];
    return {
      lefts: [...new Set(cells.filter((c) => c.getClientRects().length > 0).map((c) => Math.round(c.getBoundingClientRect().left)))].length,
      labels: cells.map((c) => c.dataset.label ?? null),
      headers: headers.slice(0, cells.length),
    };
  });
})`;

describeInBrowser('studio: the release page lays out at 1280 px and on a phone', (executablePath) => {
  let studio: Studio;
  beforeAll(async () => {
    studio = await startStudio(executablePath);
    await studio.t.request
      .put(`/api/v1/releases/gates/${REPO}`)
      .set(studio.t.admin.auth)
      .send({
        required_checks: ['build', 'unit-tests'],
        required_evidence: ['sbom-scan', { name: 'tests', format: 'junit', rules: { max_failed: 0 } }],
        require_reviewed_release: false,
      })
      .expect(201);
    await checkRun(studio.t, { repo_root: REPO, commit_sha: SHA, name: 'build' });
    await checkRun(studio.t, { repo_root: REPO, commit_sha: SHA, name: 'unit-tests', conclusion: 'failure' });
    const operator = await studio.t.user('OPERATOR');
    const evidence = (body: Record<string, unknown>) =>
      studio.t.request
        .post('/api/v1/releases/evidence')
        .set(operator.auth)
        .send({ repo_root: REPO, commit_sha: SHA, produced_at: new Date().toISOString(), ...body })
        .expect(201);
    await evidence({ kind: 'test-report', name: 'tests', status: 'passed', content: REPORT.toString('base64') });
    await evidence({ kind: 'sbom', name: 'sbom-scan', status: 'failed', digest: `sha256:${'ab'.repeat(32)}` });
  });
  afterAll(async () => {
    await studio?.close();
  });

  async function releasePage(viewport: { width: number; height: number }): Promise<{ page: Page; done: () => void }> {
    const viewer = await studio.t.user('VIEWER');
    const { page, problems } = await studio.open();
    await page.setViewportSize(viewport);
    await page.goto(`/studio#/releases/${REPO}/${SHA}`);
    await studio.signIn(page, viewer.email, { navigate: false });
    await page.locator('#decision', { hasText: 'NO_SHIP' }).waitFor();
    await page.locator('#uploaded-evidence').waitFor();
    return { page, done: () => expectNoProblems(problems) };
  }

  for (const viewport of [DESKTOP, PHONE]) {
    it(`at ${viewport.width} px no status pill or column header breaks inside a word`, async () => {
      const { page, done } = await releasePage(viewport);
      expect(await page.locator('#page .pill').count()).toBeGreaterThan(8);
      expect(await page.evaluate(brokenWords('#page .pill'))).toEqual([]);
      expect(await page.evaluate(brokenWords('#page th'))).toEqual([]);
      // Short labels in cells too: the requirement's gate field and each evidence name.
      expect(await page.evaluate(brokenWords('#requirements td:nth-child(2), #uploaded-evidence td:nth-child(-n+2)'))).toEqual([]);
      done();
    });
  }

  it('at 1280 px each table row is one line of cells; on a phone the rows stack, each cell labelled by its column', async () => {
    const desktop = await releasePage(DESKTOP);
    const wide = await desktop.page.evaluate<{ lefts: number; labels: (string | null)[]; headers: string[] }[]>(rowLayout);
    expect(wide.filter((row) => row.lefts !== row.labels.length)).toEqual([]);
    desktop.done();

    const phone = await releasePage(PHONE);
    const stacked = await phone.page.evaluate<{ lefts: number; labels: (string | null)[]; headers: string[] }[]>(rowLayout);
    expect(stacked.length).toBeGreaterThan(5);
    expect(stacked.filter((row) => row.lefts !== 1)).toEqual([]);
    for (const row of stacked) expect(row.labels).toEqual(row.headers);
    expect(await phone.page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
    phone.done();
  });
});
