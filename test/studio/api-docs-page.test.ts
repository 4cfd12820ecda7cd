import { describeInBrowser } from './support/describe-in-browser.js';
import { expectNoProblems, startStudio, type Studio } from './support/studio-harness.js';

/**
 * /docs (Swagger UI, served locally) in real Chromium under its CSP: the page must still render
 * every operation without breaking a rule, and no page may frame it (docs/operations.md,
 * "Security"). Served beside the studio, so it is driven by the studio's browser harness.
 */
describeInBrowser('the API docs page in a browser', (executablePath) => {
  let studio: Studio;
  beforeAll(async () => {
    studio = await startStudio(executablePath);
  }, 60_000);
  afterAll(async () => {
    await studio?.close();
  });

  it('renders every operation of /openapi.json under its CSP, with no violation, error or other origin', async () => {
    const { page, problems } = await studio.open();
    const document = (await (await page.request.get('/openapi.json')).json()) as { paths: Record<string, object> };
    const operations = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m} ${path}`));
    const response = await page.goto('/docs');
    expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    await page.locator('.opblock').first().waitFor();
    // An operation with two tags is shown under each: compare the set.
    const shown = await page
      .locator('.opblock')
      .evaluateAll((blocks) =>
        blocks.map(
          (b) =>
            `${b.querySelector('.opblock-summary-method')?.textContent} ${b.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`,
        ),
      );
    expect([...new Set(shown.map((s) => s.toLowerCase()))].sort()).toEqual(operations.map((o) => o.toLowerCase()).sort());
    // Opening an operation renders its parameters and responses (more markup, more styles, icons).
    await page.locator('.opblock-summary').first().click();
    await page.locator('.opblock-body .responses-wrapper').first().waitFor();
    expectNoProblems(problems);
  });

  it('cannot be framed by another page', async () => {
    const context = await studio.browser.newContext();
    try {
      const page = await context.newPage();
      const violations: string[] = [];
      page.on('console', (message) => {
        if (/frame-ancestors/.test(message.text())) violations.push(message.text());
      });
      await page.setContent(`<iframe src="${studio.baseUrl}/docs"></iframe>`, { waitUntil: 'load' });
      for (const deadline = Date.now() + 10_000; violations.length === 0 && Date.now() < deadline;) await page.waitForTimeout(50);
      expect(violations).toEqual([expect.stringContaining("frame-ancestors 'none'")]);
      const framed = page.frames().find((frame) => frame !== page.mainFrame());
      expect(await framed?.locator('#swagger-ui').count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
