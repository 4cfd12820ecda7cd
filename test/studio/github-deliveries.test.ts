import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { startFakeGitHub, type FakeGitHub } from '../fakes/fake-github-server.js';
import { appEnv, appPrivateKey, deliver, examplePayload, pullRequestPayload, settle } from '../support/github-deliveries.js';
import { deliverFailingDelivery } from '../support/delivery-outcomes.js';
import { describeInBrowser } from './support/describe-in-browser.js';
import { expectNoProblems, startStudio, type Studio } from './support/studio-harness.js';

jest.setTimeout(90_000);

const SECRET = 'studio-deliveries-secret';

describeInBrowser('studio: the GitHub deliveries and installations pages (ADMIN)', (executablePath) => {
  let gh: FakeGitHub;
  let studio: Studio;
  const repo = `acme/studio-deliveries-${randomUUID().slice(0, 6)}`;
  const duplicate = `dup-${randomUUID()}`;
  const failed = `fail-${randomUUID()}`;
  const refused = `refused-${randomUUID()}`;
  beforeAll(async () => {
    gh = await startFakeGitHub();
    gh.repos.commit(repo, { files: { '.github/shipgate.yml': 'required_checks: []\n', 'README.md': 'x\n' } });
    gh.app.installations.set(repo, 77);
    gh.app.installations.set('frozen/tool', 78);
    gh.app.suspended.set(78, '2026-02-03T04:05:06Z');
    studio = await startStudio(executablePath, appEnv(gh, SECRET, appPrivateKey()));
    const pr = pullRequestPayload('opened', { number: 40, sha: 'c'.repeat(40) }, repo);
    await deliver(studio.t, 'pull_request', pr, { secret: SECRET, id: duplicate });
    await settle(studio.t);
    expect((await deliver(studio.t, 'pull_request', pr, { secret: SECRET, id: duplicate })).body.status).toBe('duplicate');
    await deliver(studio.t, 'star', examplePayload('star', 'created', repo), { secret: SECRET, id: `star-${randomUUID()}` });
    await deliverFailingDelivery(studio.t, gh, { id: failed, repo, number: 41, secret: SECRET });
    gh.app.failNext('POST', /\/check-runs$/, { status: 403, body: { message: 'Resource not accessible by integration' } });
    await deliver(studio.t, 'pull_request', pullRequestPayload('opened', { number: 42, sha: 'd'.repeat(40) }, repo), {
      secret: SECRET,
      id: refused,
    });
    await settle(studio.t);
  });
  afterAll(async () => {
    await studio?.close();
    await gh?.close();
  });

  it('shows a failed delivery with its reason, a post GitHub refused and a duplicate delivery, and filters by outcome', async () => {
    const { page, problems } = await studio.open();
    await studio.signIn(page, studio.t.admin.email);
    await page.locator('nav a[href="#/deliveries"]', { hasText: 'Deliveries' }).click();
    await page.locator('h1', { hasText: 'Deliveries' }).waitFor();
    const row = (id: string) => page.locator('#deliveries-list tr', { has: page.locator(`[data-delivery="${id}"]`) });
    await row(failed).waitFor();
    expect(await row(failed).textContent()).toMatch(/merge_group\.checks_requested.*failed.*GitHub answered 500/);
    expect(await row(duplicate).locator('.duplicate').textContent()).toBe('duplicate ×1');
    expect(await row(duplicate).locator('.pill').textContent()).toBe('processed');
    expect(await row(refused).locator('[data-rejection]').textContent()).toBe(
      `GitHub refused POST /api/v3/repos/${repo}/check-runs (403): Resource not accessible by integration`,
    );
    expect(await row(duplicate).locator('[data-rejection]').count()).toBe(0);
    expect(await page.locator('#deliveries-list tr', { hasText: 'star.created' }).locator('.pill').textContent()).toBe('ignored');

    await page.getByLabel('Outcome').selectOption('failed');
    await page.waitForURL(/#\/deliveries\?outcome=failed$/);
    await row(failed).waitFor();
    expect(await row(duplicate).count()).toBe(0);
    expect(await page.title()).toBe('Deliveries · shipgate');

    await page.getByLabel('Outcome').selectOption('duplicate');
    await row(duplicate).waitFor();
    expect(await row(failed).count()).toBe(0);
    expectNoProblems(problems);
  });

  it("lists the App's installations with their repositories and suspension", async () => {
    const { page, problems } = await studio.open();
    await studio.signIn(page, studio.t.admin.email);
    await page.locator('nav a[href="#/installations"]', { hasText: 'Installations' }).click();
    const active = page.locator('#installations-list tr[data-installation="77"]');
    await active.waitFor();
    expect(await active.textContent()).toContain(repo);
    expect(await active.locator('.pill').textContent()).toBe('active');
    const suspended = page.locator('#installations-list tr[data-installation="78"]');
    expect(await suspended.locator('.pill').textContent()).toBe('suspended');
    expect(await suspended.textContent()).toContain('frozen');
    expectNoProblems(problems);
  });

  it('shows neither page to anyone but an ADMIN', async () => {
    const operator = await studio.t.user('OPERATOR');
    const { page } = await studio.open();
    await studio.signIn(page, operator.email);
    expect(await page.locator('nav a[href="#/deliveries"]').count()).toBe(0);
    await page.goto('/studio#/deliveries');
    await page.locator('p.notice', { hasText: 'Only an ADMIN' }).waitFor();
  });
});
