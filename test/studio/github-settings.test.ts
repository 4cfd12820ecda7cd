import { createHash } from 'node:crypto';
import { jest } from '@jest/globals';
import { WEBHOOK_PATH } from '../../server/github-webhook-middleware.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/fake-github-server.js';
import { appEnv, appPrivateKey } from '../support/github-deliveries.js';
import { describeInBrowser } from './support/describe-in-browser.js';
import { expectNoProblems, startStudio, type Studio } from './support/studio-harness.js';

jest.setTimeout(90_000);

const PUBLIC_URL = 'https://gate.acme.example';

describeInBrowser('studio: the GitHub page (ADMIN)', (executablePath) => {
  let gh: FakeGitHub;
  let studio: Studio;
  let configured: Studio;
  beforeAll(async () => {
    gh = await startFakeGitHub();
    [studio, configured] = await Promise.all([
      startStudio(executablePath, { GHE_HOST: gh.host, GHE_PROTOCOL: 'http', SHIPGATE_PUBLIC_URL: PUBLIC_URL }),
      startStudio(executablePath, appEnv(gh, 'studio-github-secret', appPrivateKey())),
    ]);
  });
  afterAll(async () => {
    await studio?.close();
    await configured?.close();
    await gh?.close();
  });

  it("registers in one click: the form posts shipgate's manifest and a single-use state to the organisation's new-App page on GitHub", async () => {
    const { page, problems } = await studio.open();
    await studio.signIn(page, studio.t.admin.email);
    await page.locator('nav a[href="#/github"]', { hasText: 'GitHub' }).click();
    await page.locator('#app-source', { hasText: 'No GitHub App is configured. Register one in one click' }).waitFor();
    // No webhook secret is known yet: the page says deliveries are refused (docs/github-app.md, "Webhook signatures").
    expect(await page.locator('#webhook-deliveries').textContent()).toMatch(/^Webhook deliveries are refused \(503\)/);
    // GitHub's new-App page: what the browser posts there is the test's to read (the studio itself never calls another origin).
    const posted: { url: string; method: string; body: string }[] = [];
    await page.route(`http://${gh.host}/**`, async (route) => {
      const request = route.request();
      posted.push({ url: request.url(), method: request.method(), body: request.postData() ?? '' });
      await route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Create GitHub App</title>' });
    });
    await page.getByLabel('Register the App under').selectOption('organization');
    await page.getByLabel('Organisation', { exact: true }).fill('acme');
    await page.getByRole('button', { name: 'Register the App on GitHub' }).click();
    await page.waitForURL(`http://${gh.host}/organizations/acme/settings/apps/new`);

    expect(posted.map(({ url, method }) => [method, url])).toEqual([['POST', `http://${gh.host}/organizations/acme/settings/apps/new`]]);
    const form = new URLSearchParams(posted[0].body);
    const manifest = JSON.parse(form.get('manifest') ?? '{}');
    expect(manifest).toMatchObject({
      name: 'shipgate',
      hook_attributes: { url: `${PUBLIC_URL}${WEBHOOK_PATH}` },
      redirect_url: `${PUBLIC_URL}/api/v1/github/app/manifest/callback`,
      setup_url: `${PUBLIC_URL}/studio#/github`,
    });
    const state = form.get('state') ?? '';
    const stored = await studio.t.database
      .db('github_app_manifest_states')
      .where({ state_sha256: createHash('sha256').update(state).digest('hex') });
    expect(stored).toHaveLength(1);
    expect(stored[0].organization).toBe('acme');
    expectNoProblems({ ...problems, offOrigin: problems.offOrigin.filter((url) => !url.startsWith(`http://${gh.host}/`)) });
  });

  it("tells why GitHub's redirect back was refused", async () => {
    const { page, problems } = await studio.open();
    await studio.signIn(page, studio.t.admin.email);
    await page.goto('/studio#/github?error=state');
    await page.locator('#github-message', { hasText: 'The registration link was unknown, already used or expired' }).waitFor();
    expectNoProblems(problems);
  });

  it('says that environment variables take precedence, and offers the install link instead of the form', async () => {
    const { page, problems } = await configured.open();
    await configured.signIn(page, configured.t.admin.email);
    await page.goto('/studio#/github');
    await page.locator('#app-source', { hasText: 'configured by environment variables' }).waitFor();
    expect(await page.locator('#app-source').textContent()).toContain('take precedence');
    expect(await page.locator('#webhook-deliveries').textContent()).toMatch(/^Webhook deliveries are verified/);
    expect(await page.locator('#register-app-form').count()).toBe(0);
    expect(await page.locator('dl.facts').textContent()).toContain(String(gh.app.appId));
    await page.locator('#installations-list').waitFor();
    expectNoProblems(problems);
  });

  it('is for an ADMIN only: no GitHub entry for anyone else', async () => {
    const viewer = await studio.t.user('VIEWER');
    const { page, problems } = await studio.open();
    await studio.signIn(page, viewer.email);
    expect(await page.locator('nav a[href="#/github"]').count()).toBe(0);
    await page.goto('/studio#/github');
    await page.locator('p.notice', { hasText: 'Only an ADMIN registers and configures the GitHub App.' }).waitFor();
    expectNoProblems(problems);
  });
});
