import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { checkRun, sha } from '../support/release-api.js';
import { serviceAccount } from '../support/service-account.js';
import { describeInBrowser } from './support/describe-in-browser.js';
import { expectNoProblems, startStudio, type Studio } from './support/studio-harness.js';

jest.setTimeout(90_000);

const REPO = `acme/gate-simulation-${randomUUID().slice(0, 8)}`;

describeInBrowser('studio: the gate editor tries a draft on the recent decisions before saving (acceptance 5)', (executablePath) => {
  let studio: Studio;
  /** Ship now on ci alone; without lint, the draft blocks them. */
  const blocked = Array.from({ length: 12 }, (_, i) => sha(`${REPO}-blocked-${i}`));
  /** Failed ci now; lint passed, so the draft (lint only) ships them. */
  const unblocked = Array.from({ length: 3 }, (_, i) => sha(`${REPO}-unblocked-${i}`));
  /** Both checks passed: alike either way. */
  const alike = Array.from({ length: 5 }, (_, i) => sha(`${REPO}-alike-${i}`));

  beforeAll(async () => {
    studio = await startStudio(executablePath);
    const { t } = studio;
    await t.request
      .put(`/api/v1/releases/gates/${REPO}`)
      .set(t.admin.auth)
      .send({ required_checks: ['ci'] })
      .expect(201);
    for (const commit of alike) {
      await checkRun(t, { repo_root: REPO, commit_sha: commit, name: 'ci' });
      await checkRun(t, { repo_root: REPO, commit_sha: commit, name: 'lint' });
    }
    for (const commit of unblocked) {
      await checkRun(t, { repo_root: REPO, commit_sha: commit, name: 'ci', conclusion: 'failure' });
      await checkRun(t, { repo_root: REPO, commit_sha: commit, name: 'lint' });
    }
    for (const commit of blocked) await checkRun(t, { repo_root: REPO, commit_sha: commit, name: 'ci' });
  });
  afterAll(async () => {
    await studio?.close();
  });

  it('shows how many decisions the draft would block and unblock, lists them with links to their release pages, and saves nothing', async () => {
    const author = await serviceAccount(studio.t, 'POLICY_AUTHOR');
    const { page, problems } = await studio.open();
    await page.goto(`/studio#/repos/${REPO}/gate`);
    await studio.signIn(page, author.email, { navigate: false });
    await page.locator('h1', { hasText: `Release gate of ${REPO}` }).waitFor();

    // What only the API knows (a repeated rule name) is shown by the field, as a save shows it.
    await page.locator('#gate-rules').fill(
      JSON.stringify([
        { name: 'two', require: { approvals: 1 } },
        { name: 'TWO', require: { approvals: 1 } },
      ]),
    );
    await page.locator('#gate-simulate').click();
    await page.locator('#gate-rules-problem', { hasText: 'rules.1.name:' }).waitFor();
    await page.locator('#gate-simulation', { hasText: 'Not tried' }).waitFor();

    await page.locator('#gate-rules').fill('[]');
    await page.locator('#gate-required_checks').fill('lint');
    await page.locator('#gate-simulate').click();
    await page
      .locator('#gate-simulation-summary', { hasText: 'This version would block 12 and unblock 3 of the last 20 decisions.' })
      .waitFor();
    const rows = page.locator('#gate-simulation-changes tbody tr');
    expect(await rows.count()).toBe(15);
    const listed = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-commit')));
    // Newest first seen first: the blocked commits were recorded last.
    expect(listed).toEqual([...blocked].reverse().concat([...unblocked].reverse()));
    const first = rows.first();
    expect(await first.locator('td[data-label="Now"]').textContent()).toBe('SHIP');
    expect(await first.locator('td[data-label="With this version"]').textContent()).toBe('NO_SHIP');
    expect(await first.locator('td[data-label="Blockers with this version"]').textContent()).toContain(
      'required_check_missing (check:lint)',
    );

    // Nothing was saved: the gate in force is still version 1.
    expect((await studio.t.request.get(`/api/v1/releases/gates/${REPO}`).set(author.auth).expect(200)).body.version).toBe(1);
    expect((await studio.t.request.get(`/api/v1/releases/gates/${REPO}/versions`).set(author.auth).expect(200)).body.versions).toHaveLength(
      1,
    );

    // Each commit links to its release page.
    await first.locator('a').click();
    await page.waitForURL(new RegExp(`#/releases/${REPO}/${blocked[11]}$`));
    await page.locator('#decision', { hasText: /^SHIP$/ }).waitFor();
    expectNoProblems(problems);
  });
});
