import { jest } from '@jest/globals';
import type { Page } from 'playwright-core';
import { describeInBrowser } from './support/describe-in-browser.js';
import { expectNoProblems, startStudio, type Studio } from './support/studio-harness.js';

jest.setTimeout(60_000);

const SHA = '3f786850e387550fdab836ed7e6dc881de23001b';

describeInBrowser('studio: the release page', (executablePath) => {
  let studio: Studio;
  beforeAll(async () => {
    studio = await startStudio(executablePath);
    await studio.t.request
      .put('/api/v1/releases/gates/acme/widgets')
      .set(studio.t.admin.auth)
      .send({ required_evidence: ['sbom-scan'], require_reviewed_release: false })
      .expect(201);
  });
  afterAll(async () => {
    await studio?.close();
  });

  const targets = (page: Page) => page.locator('#promote-form select[name=target_status] option').allTextContents();

  it('NO_SHIP with its blocker and remediation; SHIP once evidence arrives; attesting adds a history row; the badge loads', async () => {
    const approver = await studio.t.user('APPROVER');
    const { page, problems } = await studio.open();
    // The GitHub App's check run links here; the reviewer signs in and lands on the decision.
    await page.goto(`/studio#/releases/acme/widgets/${SHA}`);
    await studio.signIn(page, approver.email, { navigate: false });
    await page.waitForURL(new RegExp(`#/releases/acme/widgets/${SHA}$`));

    await page.locator('#decision', { hasText: 'NO_SHIP' }).waitFor();
    const blocker = page.locator('#blockers li', { hasText: 'no_evidence' });
    expect(await blocker.locator('.reason').textContent()).toBe(
      'Nothing is recorded for this commit: no check runs, no uploaded evidence, no bound workflows.',
    );
    // The action a person takes; the API's remediation stays in a collapsed disclosure.
    expect(await blocker.locator('.action').textContent()).toBe(
      'Run CI on this commit, upload evidence for it, or run a workflow bound to it.',
    );
    expect(await blocker.locator('.remediation').textContent()).toBe(
      'Run CI on this commit, upload evidence for it, or run a workflow bound to it (repo_root and commit_sha).',
    );
    // The decision's `waitable` and `allowed_promotions`, as the API answers them.
    expect(await blocker.locator('.waitable').textContent()).toBe('waiting');
    expect(await targets(page)).toEqual(['rejected']);
    expect(await page.locator('#promotions').textContent()).toBe('No promotions yet.');

    const operator = await studio.t.user('OPERATOR');
    await studio.t.request
      .post('/api/v1/releases/evidence')
      .set(operator.auth)
      .send({
        repo_root: 'acme/widgets',
        commit_sha: SHA,
        kind: 'sbom',
        name: 'sbom-scan',
        status: 'passed',
        produced_at: new Date().toISOString(),
      })
      .expect(201);
    await page.locator('#re-evaluate').click();
    await page.locator('#decision', { hasText: /^SHIP$/ }).waitFor();
    expect(await page.locator('#blockers').textContent()).toBe('No blockers.');
    expect(await page.locator('#provenance').textContent()).toContain('sbom-scan');
    expect(await targets(page)).toEqual(['attested', 'rejected']);

    await page.locator('#promote-form input[name=release_label]').fill('v1.4.0');
    await page.locator('#promote').click();
    await page.locator('#snapshot-status', { hasText: 'attested' }).waitFor();
    const rows = page.locator('#promotions tbody tr');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().locator('td').allTextContents()).toEqual([
      expect.any(String),
      'candidate',
      'attested',
      'v1.4.0',
      expect.any(String),
    ]);
    expect(await targets(page)).toEqual(['promoted', 'revoked']);

    await page.waitForFunction('document.getElementById("badge-image").complete');
    expect(await page.evaluate('document.getElementById("badge-image").naturalWidth')).toBeGreaterThan(0);
    expect(await page.locator('#badge pre').first().textContent()).toContain(`/api/v1/trust/badge?repo=acme%2Fwidgets&commit=${SHA}`);
    // The badge links to the decision's `decision_url` (here under the origin the studio asked).
    expect(await page.locator('#badge pre').first().textContent()).toContain(`/studio#/releases/acme/widgets/${SHA})`);
    const svg = await studio.t.request.get(`/api/v1/trust/badge?repo=acme/widgets&commit=${SHA}`);
    expect(svg.text ?? svg.body.toString()).toContain('Assured');
    expectNoProblems(problems);
  });

  it('shows who made the change: the agent’s commit and each approval, counted or not and why', async () => {
    const head = 'b'.repeat(40);
    const facts = {
      number: 9,
      head_sha: head,
      author: { login: 'Copilot', type: 'Bot' },
      assignees: ['alice'],
      commits: [
        {
          sha: head,
          author: { login: 'Copilot', type: 'Bot', name: 'Copilot', email: '198982749+Copilot@users.noreply.github.com' },
          committer: { login: 'web-flow', type: 'User', name: 'GitHub', email: 'noreply@github.com' },
          coauthors: [{ name: 'Alice', email: '1+alice@users.noreply.github.com' }],
        },
      ],
      reviews: [
        {
          id: 1,
          login: 'alice',
          type: 'User',
          state: 'APPROVED',
          commit_id: head,
          submitted_at: '2026-01-01T00:00:00Z',
          permission: 'write',
        },
        {
          id: 2,
          login: 'carol',
          type: 'User',
          state: 'APPROVED',
          commit_id: head,
          submitted_at: '2026-01-01T00:01:00Z',
          permission: 'write',
        },
      ],
    };
    await studio.t.database.db.raw(
      `INSERT INTO pull_request_authorship (repo_root, commit_sha, number, status, facts, commit_shas) VALUES ('acme/widgets', ?, 9, 'read', ?::jsonb, ARRAY[?])`,
      [head, JSON.stringify(facts), head],
    );
    const viewer = await studio.t.user('VIEWER');
    const { page, problems } = await studio.open();
    await page.goto(`/studio#/releases/acme/widgets/${head}`);
    await studio.signIn(page, viewer.email, { navigate: false });
    await page.locator('#authorship-summary', { hasText: 'Pull request #9 was made with Copilot.' }).waitFor();
    const rows = page.locator('#authorship table').last().locator('tbody tr');
    expect(await rows.nth(0).locator('td').allTextContents()).toEqual([
      'alice',
      'APPROVED',
      head.slice(0, 12),
      'not counted (a co-author of its commits)',
    ]);
    expect(await rows.nth(1).locator('td').allTextContents()).toEqual(['carol', 'APPROVED', head.slice(0, 12), 'counted']);
    expect(await page.locator('#blockers').textContent()).toContain('agent_change_ungoverned');

    // The words are the API's (`reason_text`, from the table the check run uses): the studio keeps no copy of its own.
    await page.route('**/api/v1/releases/decision?*', async (route) => {
      const response = await route.fetch();
      const decision = await response.json();
      decision.authorship.approvals[0].reason_text = 'words only the API knows';
      await route.fulfill({ response, json: decision });
    });
    await page.locator('#re-evaluate').click();
    await rows.nth(0).locator('td', { hasText: 'not counted (words only the API knows)' }).waitFor();
    expectNoProblems(problems);
  });
});
