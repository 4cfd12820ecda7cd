import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { startFakeGitHub, type FakeGitHub } from '../fakes/fake-github-server.js';
import { signInEnv } from '../accounts/support/github-sign-in-flow.js';
import { describeInBrowser } from './support/describe-in-browser.js';
import { expectNoProblems, startStudio, type Studio } from './support/studio-harness.js';

jest.setTimeout(60_000);

// docs/github-app.md, "Sign in with GitHub": the studio through the fake GitHub's authorization page.
describeInBrowser('studio: Sign in with GitHub', (executablePath) => {
  let gh: FakeGitHub;
  let studio: Studio;
  beforeAll(async () => {
    gh = await startFakeGitHub();
    studio = await startStudio(executablePath, signInEnv(gh, { SHIPGATE_DEFAULT_ROLE: 'APPROVER' }));
    // GitHub sends the browser back to this server's own origin (SHIPGATE_PUBLIC_URL in production).
    studio.t.deps.config.publicUrl = studio.baseUrl;
  });
  afterAll(async () => {
    await studio?.close();
    await gh?.close();
  });

  /** A watched page that may also visit GitHub (the fake): the studio itself still never requests another origin. */
  async function openWithGitHub() {
    const opened = await studio.open();
    await opened.context.route(`http://${gh.host}/**`, (route) => route.continue());
    const urls: string[] = [];
    opened.page.on('request', (request) => urls.push(request.url()));
    opened.page.on('framenavigated', (frame) => urls.push(frame.url()));
    return { ...opened, urls };
  }

  /** Every URL in the tab's session history (the back/forward list). */
  async function historyUrls(context: BrowserContext, page: Page): Promise<string[]> {
    const cdp = await context.newCDPSession(page);
    const { entries } = (await cdp.send('Page.getNavigationHistory')) as { entries: { url: string }[] };
    return entries.map((e) => e.url);
  }

  const keyOf = async (page: Page) =>
    (await page.evaluate<string[]>('Object.values(sessionStorage)')).find((value) => value.startsWith('sg_')) ?? '';

  it('signs in through GitHub; the key is in no URL, no history entry and no log line', async () => {
    const login = `octo-${randomUUID().slice(0, 8)}`;
    gh.oauth.user(login, { name: 'Octo Ada' });
    gh.oauth.signedInAs = login;
    const { context, page, problems, urls } = await openWithGitHub();
    await page.goto('/studio');
    await page.locator('#github-sign-in').click();
    await page.locator('#who-name').waitFor();
    await page.waitForURL(/#\/executions$/);
    expect(await page.locator('#who-name').textContent()).toBe('Octo Ada');
    expect(await page.locator('#who-role').textContent()).toBe('APPROVER');

    const key = await keyOf(page);
    expect(key).toMatch(/^sg_/);
    expect((await studio.t.request.get('/api/v1/auth/me').set('Authorization', `Bearer ${key}`)).body.github.login).toBe(login);
    // The browser went through GitHub's authorization page and came back with a one-time code, never the key.
    expect(urls).toEqual(expect.arrayContaining([expect.stringContaining(`http://${gh.host}/login/oauth/authorize?`)]));
    expect(urls.some((url) => url.includes('github_code='))).toBe(true);
    for (const url of urls) expect(url).not.toContain(key);
    const history = await historyUrls(context, page);
    expect(history.some((url) => url.includes('github_code') || url.includes(key))).toBe(false);
    expect(history.at(-1)).toBe(`${studio.baseUrl}/studio#/executions`);
    const logs = studio.t.logs.text();
    expect(logs).toContain('/api/v1/auth/github/exchange');
    expect(logs).not.toContain(key);
    expectNoProblems(problems);
  });

  it('shows why GitHub sign-in failed when the user cancels on GitHub, and leaves no reason in the URL', async () => {
    gh.oauth.deny = true;
    try {
      const { page, problems } = await openWithGitHub();
      await page.goto('/studio');
      await page.locator('#github-sign-in').click();
      await page.locator('#sign-in-message', { hasText: 'You cancelled on GitHub' }).waitFor();
      expect(new URL(page.url()).hash).toBe('#/sign-in');
      expect(await keyOf(page)).toBe('');
      expectNoProblems(problems);
    } finally {
      gh.oauth.deny = false;
    }
  });

  it('links and unlinks GitHub from the account page of a password account (an ADMIN: only an ADMIN removes a link)', async () => {
    const operator = await studio.t.user('ADMIN', `linking-admin-${randomUUID().slice(0, 8)}@example.com`);
    const login = `linker-${randomUUID().slice(0, 8)}`;
    gh.oauth.user(login);
    gh.oauth.signedInAs = login;
    const { page, problems, urls } = await openWithGitHub();
    await studio.signIn(page, operator.email);
    await page.goto('/studio#/account');
    expect(await page.locator('#github-login').textContent()).toBe('not linked');
    await page.locator('#link-github').click();
    await page.locator('#account-message', { hasText: `GitHub account ${login} linked.` }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/account');
    expect(await page.locator('#github-login').textContent()).toBe(login);
    const key = await keyOf(page);
    for (const url of urls) expect(url).not.toContain(key);

    await page.locator('#unlink-github').click();
    await page.locator('#account-message', { hasText: `GitHub account ${login} unlinked.` }).waitFor();
    expect(await page.locator('#github-login').textContent()).toBe('not linked');
    expect((await studio.t.request.get('/api/v1/auth/me').set(operator.auth)).body.github).toBeNull();
    expectNoProblems(problems);
  });
});
