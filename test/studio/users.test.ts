import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { startFakeGitHub, type FakeGitHub } from '../fakes/fake-github-server.js';
import { appEnv, appPrivateKey } from '../support/github-deliveries.js';
import { describeInBrowser } from './support/describe-in-browser.js';
import { expectNoProblems, startStudio, type Studio } from './support/studio-harness.js';

jest.setTimeout(60_000);

const SELF_REFUSAL = 'An ADMIN cannot demote or deactivate their own account.';

describeInBrowser('studio: the users page (ADMIN)', (executablePath) => {
  let studio: Studio;
  beforeAll(async () => {
    studio = await startStudio(executablePath);
  });
  afterAll(async () => {
    await studio?.close();
  });

  const unique = (who: string) => `${who}-${randomUUID().slice(0, 8)}@example.com`;
  const row = (page: Page, email: string) => page.locator('#users-list tr', { hasText: email });
  const message = (page: Page) => page.locator('#users-message');

  it('changes a role; deactivates a user, whose key then gets 403; reactivates them', async () => {
    const target = await studio.t.user('VIEWER', unique('vic'));
    const { page, problems } = await studio.open();
    await studio.signIn(page, studio.t.admin.email);
    await page.locator('nav a[href="#/users"]', { hasText: 'Users' }).click();
    await page.locator('h1', { hasText: 'Users' }).waitFor();
    const targetRow = row(page, target.email);
    await targetRow.waitFor();
    expect(await targetRow.locator('.user-status').textContent()).toBe('active');

    await page.getByLabel(`Role of ${target.email}`, { exact: true }).selectOption('OPERATOR');
    await page.getByRole('button', { name: `Save role of ${target.email}` }).click();
    await message(page)
      .filter({ hasText: `${target.email} is now OPERATOR.` })
      .waitFor();
    const me = await studio.t.request.get('/api/v1/auth/me').set(target.auth).expect(200);
    expect(me.body.role).toBe('OPERATOR');

    await page.getByRole('button', { name: `Deactivate ${target.email}` }).click();
    await message(page)
      .filter({ hasText: `${target.email} is deactivated` })
      .waitFor();
    expect(await targetRow.locator('.user-status').textContent()).toBe('deactivated');
    const refused = await studio.t.request.get('/api/v1/auth/me').set(target.auth);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe('Account deactivated.');

    // A reload shows what the API stored, not what the page remembered.
    await page.reload();
    await row(page, target.email).locator('.user-status', { hasText: 'deactivated' }).waitFor();
    expect(await page.getByLabel(`Role of ${target.email}`, { exact: true }).inputValue()).toBe('OPERATOR');

    await page.getByRole('button', { name: `Reactivate ${target.email}` }).click();
    await message(page)
      .filter({ hasText: `${target.email} is active again` })
      .waitFor();
    expect(await row(page, target.email).locator('.user-status').textContent()).toBe('active');
    await studio.t.request.get('/api/v1/auth/me').set(target.auth).expect(200);
    expectNoProblems(problems);
  });

  it("refuses an ADMIN demoting or deactivating themself with the API's words, and changes nothing", async () => {
    const admin = await studio.t.user('ADMIN', unique('ada'));
    const { page, problems } = await studio.open();
    await studio.signIn(page, admin.email);
    await page.goto('/studio#/users');
    await row(page, admin.email).waitFor();
    expect(await row(page, admin.email).textContent()).toContain('(you)');

    // The control is usable: the API decides and the page shows its refusal, word for word.
    const ownRole = page.getByLabel(`Role of ${admin.email}`, { exact: true });
    expect(await ownRole.isDisabled()).toBe(false);
    await ownRole.selectOption('VIEWER');
    await page.getByRole('button', { name: `Save role of ${admin.email}` }).click();
    await message(page).filter({ hasText: SELF_REFUSAL }).waitFor();
    expect(await message(page).getAttribute('class')).toContain('error');
    expect(await ownRole.inputValue()).toBe('ADMIN');

    await page.getByRole('button', { name: `Deactivate ${admin.email}` }).click();
    await message(page).filter({ hasText: SELF_REFUSAL }).waitFor();
    expect(await row(page, admin.email).locator('.user-status').textContent()).toBe('active');

    const stored = await studio.t.request.get('/api/v1/auth/me').set(admin.auth).expect(200);
    expect(stored.body.role).toBe('ADMIN');
    expectNoProblems(problems);
  });

  it('shows a non-ADMIN neither the nav entry nor a user list (and the API refuses them)', async () => {
    const operator = await studio.t.user('OPERATOR', unique('otto'));
    const { page, problems } = await studio.open();
    await studio.signIn(page, operator.email);
    expect(await page.locator('nav a[href="#/users"]').count()).toBe(0);
    await page.goto('/studio#/users');
    await page.getByText('Only an ADMIN manages users.').waitFor();
    expect(await page.locator('#users-list, select[name=role]').count()).toBe(0);
    await studio.t.request.get('/api/v1/users').set(operator.auth).expect(403);
    expectNoProblems(problems);
  });
});

describeInBrowser('studio: the users page with a GitHub App (repository access)', (executablePath) => {
  let gh: FakeGitHub;
  let studio: Studio;
  beforeAll(async () => {
    gh = await startFakeGitHub();
    studio = await startStudio(executablePath, appEnv(gh, 'users-page-secret', appPrivateKey()));
  });
  afterAll(async () => {
    await studio?.close();
    await gh?.close();
  });

  it('names the accounts without a GitHub link that read public repositories only, and makes one a service account', async () => {
    const ci = await studio.t.user('OPERATOR', `ci-${randomUUID().slice(0, 8)}@example.com`);
    const { page, problems } = await studio.open();
    await studio.signIn(page, studio.t.admin.email);
    await page.goto('/studio#/users');
    const ciRow = page.locator('#users-list tr', { hasText: ci.email });
    await ciRow.locator('.repo-access', { hasText: 'Public repositories only (no GitHub link)' }).waitFor();
    await page.locator('#users-public-only', { hasText: ci.email }).waitFor();
    expect(await page.locator('#users-list tr', { hasText: studio.t.admin.email }).locator('.repo-access').textContent()).toBe(
      'Role alone',
    );

    await page.getByRole('button', { name: `Make service account ${ci.email}` }).click();
    await page.locator('#users-message', { hasText: `${ci.email} is a service account` }).waitFor();
    expect(await ciRow.locator('.repo-access').textContent()).toBe('Service account: role alone');
    expect(await page.locator('#users-public-only').isHidden()).toBe(true);
    const stored = await studio.t.request.get('/api/v1/users').query({ limit: 100 }).set(studio.t.admin.auth).expect(200);
    expect(stored.body.find((u: { id: string }) => u.id === ci.id)).toMatchObject({
      service_account: true,
      repository_access: 'role_only',
    });
    expectNoProblems(problems);
  });
});
