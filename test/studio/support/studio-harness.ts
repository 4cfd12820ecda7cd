import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createTestApp, type TestApp } from '../../support/test-app.js';

/** Chromium flags that work on these machines; without the networking ones it dials hosts it cannot reach. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** What a page did that the studio must never do: leave the origin, log an error, break its CSP. */
export interface PageProblems {
  offOrigin: string[];
  consoleErrors: string[];
  pageErrors: string[];
  badResponses: string[];
}

export interface Studio {
  t: TestApp;
  baseUrl: string;
  browser: Browser;
  /** A fresh browser context (its own sessionStorage) with a page watched for problems. */
  open(): Promise<{ context: BrowserContext; page: Page; problems: PageProblems }>;
  /** Signs in through the form and waits for the executions page. */
  /** Signs in through the form (opening /studio first unless the form is already shown) and waits for the signed-in page. */
  signIn(page: Page, email: string, options?: { password?: string; navigate?: boolean }): Promise<void>;
  close(): Promise<void>;
}

export const PASSWORD = 'correct horse battery';

/**
 * The real server (API, worker and studio files) listening on a loopback port, and Chromium.
 * Every request a page makes is intercepted: only this loopback origin is let through; anything
 * else is aborted and recorded, so a test fails if the studio ever reaches another host.
 */
export async function startStudio(executablePath: string, env: Record<string, string> = {}): Promise<Studio> {
  const t = await createTestApp(env, { worker: true });
  const server = http.createServer(t.app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  const contexts: BrowserContext[] = [];

  async function open() {
    const context = await browser.newContext({ baseURL: baseUrl, acceptDownloads: true });
    contexts.push(context);
    const problems: PageProblems = { offOrigin: [], consoleErrors: [], pageErrors: [], badResponses: [] };
    await context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.origin === baseUrl) return route.continue();
      problems.offOrigin.push(url.href);
      return route.abort('blockedbyclient');
    });
    // CSP violations also reach the console; this catches any the console might not report.
    await context.addInitScript(
      "document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI));",
    );
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      // The browser logs every non-2xx fetch; API refusals are answers the page shows (checked below).
      const location = message.location().url;
      if (/Failed to load resource/.test(message.text()) && new URL(location || baseUrl).pathname.startsWith('/api/v1/')) return;
      problems.consoleErrors.push(`${message.text()} (${location})`);
    });
    page.on('pageerror', (error) => problems.pageErrors.push(error.message));
    page.on('response', (response) => {
      const path = new URL(response.url()).pathname;
      if (response.status() >= 500 || (path.startsWith('/studio') && response.status() >= 400))
        problems.badResponses.push(`${response.status()} ${response.url()}`);
    });
    return { context, page, problems };
  }

  async function signIn(page: Page, email: string, { password = PASSWORD, navigate = true } = {}) {
    if (navigate) await page.goto('/studio');
    await page.locator('#sign-in-form input[name=email]').fill(email);
    await page.locator('#sign-in-form input[name=password]').fill(password);
    await page.locator('#sign-in-form button[type=submit]').click();
    await page.locator('#who-name').waitFor();
  }

  async function close() {
    await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  }

  return { t, baseUrl, browser, open, signIn, close };
}

/** The page stayed on its origin, logged no error, broke no CSP rule and got no 5xx. */
export function expectNoProblems(problems: PageProblems): void {
  expect(problems).toEqual({ offOrigin: [], consoleErrors: [], pageErrors: [], badResponses: [] });
}
