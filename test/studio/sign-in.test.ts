import { jest } from '@jest/globals';
import type { Page } from 'playwright-core';
import { waitFor } from '../executions/support/wait-for.js';
import { describeInBrowser } from './support/describe-in-browser.js';
import { expectNoProblems, startStudio, type Studio } from './support/studio-harness.js';

jest.setTimeout(60_000);

describeInBrowser('studio: signing in and out, account, the executions list', (executablePath) => {
  let studio: Studio;
  beforeAll(async () => {
    studio = await startStudio(executablePath);
  });
  afterAll(async () => {
    await studio?.close();
  });

  // Runs in the page (a string: the test's TypeScript has no DOM types).
  const storage = (page: Page) =>
    page.evaluate<{ session: string[]; local: number; cookie: string }>(
      '({ session: Object.values(sessionStorage), local: localStorage.length, cookie: document.cookie })',
    );
  const keysIn = async (page: Page) => (await storage(page)).session.filter((value) => value.startsWith('sg_'));

  it('signs in onto executions showing name and role; the key is in sessionStorage only; sign out revokes it', async () => {
    const operator = await studio.t.user('OPERATOR', 'olga@example.com');
    const { page, problems } = await studio.open();
    await studio.signIn(page, operator.email);

    await page.waitForURL(/#\/executions$/);
    expect(await page.locator('h1').textContent()).toBe('Executions');
    expect(await page.locator('#who-name').textContent()).toBe('olga');
    expect(await page.locator('#who-role').textContent()).toBe('OPERATOR');
    const stored = await storage(page);
    const key = stored.session.find((value) => value.startsWith('sg_'));
    expect(key).toBeDefined();
    expect(stored.local).toBe(0);
    expect(stored.cookie).toBe('');
    expect((await studio.t.request.get('/api/v1/auth/me').set('Authorization', `Bearer ${key}`)).status).toBe(200);

    await page.locator('#sign-out').click();
    await page.locator('#sign-in-form').waitFor();
    expect((await storage(page)).session).not.toContain(key);
    const after = await studio.t.request.get('/api/v1/auth/me').set('Authorization', `Bearer ${key}`);
    expect(after.status).toBe(401);
    // The user's own key (a CI key, say) is untouched.
    expect((await studio.t.request.get('/api/v1/auth/me').set(operator.auth)).status).toBe(200);
    expectNoProblems(problems);
  });

  it('shows the server’s message for a wrong password and stays signed out', async () => {
    const viewer = await studio.t.user('VIEWER');
    const { page, problems } = await studio.open();
    await page.goto('/studio');
    await page.locator('#sign-in-form input[name=email]').fill(viewer.email);
    await page.locator('#sign-in-form input[name=password]').fill('not the password');
    await page.locator('#sign-in-form button[type=submit]').click();
    await page.getByText('Invalid email or password.').waitFor();
    expect(await page.locator('#sign-in-message').textContent()).toBe('Invalid email or password.');
    expect(await keysIn(page)).toEqual([]);
    expectNoProblems(problems);
  });

  it('returns to sign-in with the server’s message when the key stops working, then back to the deep link', async () => {
    const auditor = await studio.t.user('AUDITOR');
    const { page, problems } = await studio.open();
    await studio.signIn(page, auditor.email);
    const [key] = await keysIn(page);
    // The key is revoked elsewhere (say, the same user signs out in another tab).
    await studio.t.request.post('/api/v1/auth/logout').set('Authorization', `Bearer ${key}`).expect(204);
    await page.goto('/studio#/policies/hipaa');
    await page.locator('#sign-in-form').waitFor();
    expect(await page.locator('#sign-in-message').textContent()).toBe('Invalid API key.');
    await studio.signIn(page, auditor.email, { navigate: false });
    await page.waitForURL(/#\/policies\/hipaa$/);
    expect(await page.locator('h1').textContent()).toBe('Policy hipaa v1');
    expectNoProblems(problems);
  });

  it('account: rotating the key keeps the session on the new one; an ADMIN is sent to the Users page for users', async () => {
    const { page, problems } = await studio.open();
    await studio.signIn(page, studio.t.admin.email);
    await page.goto('/studio#/account');
    const [before] = await keysIn(page);
    await page.locator('#rotate-key').click();
    await page.locator('#account-message', { hasText: 'Key rotated' }).waitFor();
    const [after] = await keysIn(page);
    expect(after).not.toBe(before);
    expect((await studio.t.request.get('/api/v1/auth/me').set('Authorization', `Bearer ${before}`)).status).toBe(401);

    // The account page no longer repeats the user list: the Users page (test/studio/users.test.ts) manages roles.
    expect(await page.locator('#account-message + p select, #users').count()).toBe(0);
    await page.getByRole('link', { name: 'Users page' }).click();
    await page.waitForURL(/#\/users$/);
    expectNoProblems(problems);
  });

  it('executions list: own or everyone’s (ADMIN), a status filter, and "load more" following the Link header', async () => {
    const operator = await studio.t.user('OPERATOR');
    const submit = (auth: { Authorization: string }, task: string) =>
      studio.t.request.post('/api/v1/tasks').set(auth).send({ task }).expect(201);
    for (let i = 0; i < 22; i++) await submit(operator.auth, `Operator task ${i}`);
    await submit(studio.t.admin.auth, 'The admin’s own task');
    // No provider key is configured here: each run fails at once (provider_not_configured).
    await waitFor(
      async () => (await studio.t.request.get('/api/v1/executions?scope=all&status=queued').set(studio.t.admin.auth)).body.length,
      (queued) => queued === 0,
      20_000,
      200,
    );
    const { page, problems } = await studio.open();
    await studio.signIn(page, studio.t.admin.email);
    const rows = page.locator('table.grid tbody tr');
    await rows.first().waitFor();
    expect(await rows.allTextContents()).toEqual([expect.stringContaining('The admin’s own task')]);
    expect(await page.locator('#load-more').isHidden()).toBe(true);

    await page.locator('select[name=scope]').selectOption('all');
    await page.waitForURL(/#\/executions\?scope=all$/);
    await page.locator('table.grid tbody tr:nth-child(20)').waitFor();
    expect(await rows.count()).toBe(20);
    // Everyone's runs name their owner: the admin's own task, newest, by the admin's name.
    expect(await page.locator('table.grid thead th').last().textContent()).toBe('Owner');
    expect(await rows.first().locator('td .person').textContent()).toBe(studio.t.admin.email.split('@')[0]);
    await page.locator('#load-more').click();
    await page.locator('table.grid tbody tr:nth-child(23)').waitFor();
    expect(await page.locator('#load-more').isHidden()).toBe(true);
    expect(await rows.count()).toBe(23);

    await page.locator('select[name=status]').selectOption('completed');
    await page.locator('.empty', { hasText: 'No executions are completed. Choose “any status” to see the others.' }).waitFor();
    expect(await rows.count()).toBe(0);
    await page.locator('select[name=status]').selectOption('failed');
    await page.waitForURL(/#\/executions\?status=failed&scope=all$/);
    await page.locator('table.grid tbody tr:nth-child(20)').waitFor();
    expect(await page.locator('table.grid tbody tr .pill').allTextContents()).toEqual(Array(20).fill('failed'));

    const { page: operatorPage } = await studio.open();
    await studio.signIn(operatorPage, operator.email);
    expect(await operatorPage.locator('select[name=scope]').count()).toBe(0);
    expectNoProblems(problems);
  });
});
