import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import type { Page } from 'playwright-core';
import { storeReadPullRequest } from '../release/support/stored-pull-request.js';
import { checkRun, putGate, sha } from '../support/release-api.js';
import type { TestUser } from '../support/test-app.js';
import { seriousViolations, withAxe } from './support/axe.js';
import { describeInBrowser } from './support/describe-in-browser.js';
import { expectNoProblems, startStudio, type Studio } from './support/studio-harness.js';

jest.setTimeout(90_000);

const REPO = `acme/override-${randomUUID().slice(0, 8)}`;
const HEAD = sha(`${REPO}-head`);
const REASON = 'Outage fix: the build check is flaky on the runner, verified by hand.';
let githubIds = 7_100_000;

// docs/studio.md, "Overrides"; docs/release-gate.md, "Overrides". Without a GitHub App repository access goes by role
// (SHIPGATE_REPO_ACCESS=roles): an APPROVER may override; independence is still judged by the linked GitHub login.
describeInBrowser('studio: overriding a blocked release on the record, and revoking it', (executablePath) => {
  let studio: Studio;

  /** A user of `role` linked to the GitHub login `login` (the row sign-in with GitHub makes). */
  async function linked(role: 'APPROVER' | 'VIEWER', login: string): Promise<TestUser> {
    const user = await studio.t.user(role);
    await studio.t.database.db('github_identities').insert({ user_id: user.id, github_user_id: String(++githubIds), login });
    return user;
  }

  async function releasePage(user: TestUser) {
    const { context, page, problems } = await studio.open();
    await withAxe(context);
    await page.goto(`/studio#/releases/${REPO}/${HEAD}`);
    await studio.signIn(page, user.email, { navigate: false });
    await page.locator('#decision').waitFor();
    return { page, problems };
  }

  const decision = (page: Page) => page.locator('#decision').textContent();

  beforeAll(async () => {
    studio = await startStudio(executablePath);
    await putGate(studio.t, REPO, { required_checks: ['build'] });
    // Bob opened and wrote the change; its build failed.
    await storeReadPullRequest(studio.t.database.db, REPO, { number: 12, head: HEAD, author: 'bob-author' });
    await checkRun(studio.t, { repo_root: REPO, commit_sha: HEAD, name: 'build', conclusion: 'failure' });
  });
  afterAll(async () => {
    await studio?.close();
  });

  it('a VIEWER sees no Override action; the change’s author is refused with the API’s detail', async () => {
    const viewer = await releasePage(await linked('VIEWER', 'vic-viewer'));
    expect(await decision(viewer.page)).toBe('NO_SHIP');
    await viewer.page.locator('#blockers').waitFor();
    expect(await viewer.page.locator('#open-override').count()).toBe(0);
    expectNoProblems(viewer.problems);

    const { page, problems } = await releasePage(await linked('APPROVER', 'bob-author'));
    await page.locator('#open-override').click();
    await page.getByLabel('required_check_failed on check:build').check();
    await page.locator('#override-reason').fill(REASON);
    await page.locator('#override-submit').click();
    await page.locator('#override-problem', { hasText: 'you opened its pull request (@bob-author)' }).waitFor();
    expect(await decision(page)).toBe('NO_SHIP');
    expectNoProblems(problems);
  });

  it('an independent APPROVER overrides the failed build: SHIP naming the override; the repository lists it; revoking brings NO_SHIP back', async () => {
    const { page, problems } = await releasePage(await linked('APPROVER', 'ana'));
    expect(await decision(page)).toBe('NO_SHIP');

    // The form: the decision's blockers, a reason, an expiry of at most 7 days.
    await page.locator('#open-override').click();
    await page.locator('#override-form').waitFor();
    expect(await page.locator('#override-form select[name=expires_in_seconds] option').allTextContents()).toEqual([
      '1 hour',
      '4 hours',
      '1 day',
      '3 days',
      '7 days',
    ]);
    expect(await seriousViolations(page, 'override form')).toEqual([]);
    // Nothing chosen: the form says so and sends nothing.
    await page.locator('#override-reason').fill(REASON);
    await page.locator('#override-submit').click();
    await page.locator('#override-problem', { hasText: 'Choose at least one blocker to override.' }).waitFor();

    await page.getByLabel('required_check_failed on check:build').check();
    await page.locator('#override-form select[name=expires_in_seconds]').selectOption({ label: '1 day' });
    await page.locator('#override-submit').click();
    await page.locator('#decision', { hasText: /^SHIP$/ }).waitFor();
    expect(await page.locator('#decision-override').textContent()).toBe(' by override of @ana');
    expect(await page.locator('#blockers').textContent()).toBe('No blockers.');
    const item = page.locator('#overridden li.override');
    expect(await item.count()).toBe(1);
    expect(await item.locator('.override-by').textContent()).toBe('@ana');
    expect(await item.locator('.override-reason').textContent()).toBe(REASON);
    expect(await item.textContent()).toContain('Lifts required_check_failed on check:build');
    expect(await item.locator('time').textContent()).toBe('in 1 day');
    expect(await page.locator('#open-override').count()).toBe(0);
    expect(await seriousViolations(page, 'overridden release')).toEqual([]);

    // The repository page lists it, active, with who and why.
    await page.goto(`/studio#/repos/${REPO}`);
    const row = page.locator('#overrides tbody tr');
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    const cells = await row.locator('td').allTextContents();
    expect(cells.slice(0, 5)).toEqual([
      'active',
      HEAD.slice(0, 12),
      'required_check_failed on check:build',
      REASON,
      expect.stringContaining('(@ana)'),
    ]);
    expect(cells[5]).toMatch(/^until /);
    expect(await row.locator('td').nth(3).getAttribute('data-label')).toBe('Reason');
    expect(await seriousViolations(page, 'repository overrides')).toEqual([]);

    // Revoked from the release page: blocked again, and listed as revoked.
    await row.locator('a').click();
    await page.locator('#overridden').waitFor();
    await page.getByRole('button', { name: 'Revoke the override by @ana' }).click();
    await page.locator('#decision', { hasText: 'NO_SHIP' }).waitFor();
    expect(await page.locator('#overridden').count()).toBe(0);
    expect(await page.locator('#decision-override').count()).toBe(0);
    await page.locator('#open-override').waitFor();
    await page.goto(`/studio#/repos/${REPO}`);
    await page.locator('#overrides tbody tr td', { hasText: 'revoked' }).first().waitFor();
    expect(await page.locator('#overrides tbody tr').count()).toBe(1);
    expectNoProblems(problems);
  });
});
