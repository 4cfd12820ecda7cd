import fs from 'node:fs';
import { jest } from '@jest/globals';
import { describeInBrowser } from './support/describe-in-browser.js';
import { expectNoProblems, startStudio, type Studio } from './support/studio-harness.js';

jest.setTimeout(60_000);

const REPO = 'acme/evidence-page';
const SHA = '9c1185a5c5e9fc54612808977ee8f548b2258d31';
const REPORT = Buffer.from(
  `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="jest tests" tests="5" failures="2" errors="0" time="0.5">
  <testsuite name="cart" errors="0" failures="2" skipped="0" timestamp="2026-01-01T00:00:00" time="0.5" tests="5">
    <testcase classname="cart" name="adds an item" time="0.1"></testcase>
    <testcase classname="cart" name="removes an item" time="0.1"></testcase>
    <testcase classname="cart" name="totals the discount" time="0.1"><failure message="expected 10, got 12">Error: expected 10, got 12</failure></testcase>
    <testcase classname="cart" name="rejects a negative quantity" time="0.1"><failure message="no error thrown">Error: no error thrown</failure></testcase>
    <testcase classname="cart" name="empties" time="0.1"></testcase>
  </testsuite>
</testsuites>
`,
);

describeInBrowser('studio: evidence read by content on the release page', (executablePath) => {
  let studio: Studio;
  beforeAll(async () => {
    studio = await startStudio(executablePath);
    await studio.t.request
      .put(`/api/v1/releases/gates/${REPO}`)
      .set(studio.t.admin.auth)
      .send({ required_evidence: [{ name: 'tests', format: 'junit', rules: { max_failed: 0 } }], require_reviewed_release: false })
      .expect(201);
    const operator = await studio.t.user('OPERATOR');
    await studio.t.request
      .post('/api/v1/releases/evidence')
      .set(operator.auth)
      .send({
        repo_root: REPO,
        commit_sha: SHA,
        kind: 'test-report',
        name: 'tests',
        status: 'passed',
        content: REPORT.toString('base64'),
        produced_at: new Date().toISOString(),
      })
      .expect(201);
  });
  afterAll(async () => {
    await studio?.close();
  });

  it("shows the report's summary and its rule results, and downloads the document with the key as an attachment", async () => {
    const viewer = await studio.t.user('VIEWER');
    const { page, problems } = await studio.open();
    await page.goto(`/studio#/releases/${REPO}/${SHA}`);
    await studio.signIn(page, viewer.email, { navigate: false });
    await page.locator('#decision', { hasText: 'NO_SHIP' }).waitFor();

    const tests = page.locator('.evidence-content[data-evidence="tests"]');
    expect(await tests.locator('.evidence-summary').textContent()).toBe('5 tests, 2 failed');
    expect(await tests.locator('.evidence-list li').allTextContents()).toEqual([
      expect.stringContaining('totals the discount'),
      expect.stringContaining('rejects a negative quantity'),
    ]);
    const rule = tests.locator('table.rule-results tbody tr').first();
    expect(await rule.locator('td').nth(0).textContent()).toBe('max_failed');
    expect(await rule.locator('td').nth(1).textContent()).toBe('failed');
    expect(await rule.locator('td').nth(2).textContent()).toContain('2 of 5 tests failed');
    expect(await rule.locator('.remediation').textContent()).toMatch(/^Fix: \S/);
    expect(await page.locator('#uploaded-evidence tbody tr').first().locator('td').nth(3).textContent()).toBe('5 tests, 2 failed');
    expect(await page.locator('#blockers').textContent()).toContain('evidence_content_failed');

    // The document is fetched with the session's key in a header, never in its URL, and saved from a Blob.
    const fetched = page.waitForRequest((r) => r.url().includes('/document'));
    const download = page.waitForEvent('download');
    await tests.locator('button.download-document').click();
    const request = await fetched;
    expect(request.headers().authorization).toBe(`Bearer ${await page.evaluate('sessionStorage.getItem("shipgate.key")')}`);
    expect(new URL(request.url()).search).toBe('');
    const response = await request.response();
    expect(response?.headers()['content-disposition']).toBe('attachment; filename="tests.xml"');
    expect(response?.headers()['content-type']).toMatch(/^application\/xml/);
    expect(response?.headers()['x-content-type-options']).toBe('nosniff');
    const file = await download;
    expect(file.suggestedFilename()).toBe('tests.xml');
    expect(fs.readFileSync((await file.path())!)).toEqual(REPORT);
    await tests.locator('text=Downloaded tests.xml.').waitFor();
    expectNoProblems(problems);
  });
});
