import { jest } from '@jest/globals';
import type { ReleaseDecision } from '../../studio/types.js';
import { describeInBrowser } from './support/describe-in-browser.js';
import { expectNoProblems, startStudio, type Studio } from './support/studio-harness.js';

jest.setTimeout(60_000);

const SHA = '9c1185a5c5e9fc54612808977ee8f548b2258d31';

describeInBrowser('studio: the rules that applied, on the release page', (executablePath) => {
  let studio: Studio;
  beforeAll(async () => {
    studio = await startStudio(executablePath);
  });
  afterAll(async () => {
    await studio?.close();
  });

  it('shows each applying rule, met or not, with what is missing, the files that triggered it and the approvals it counted', async () => {
    const viewer = await studio.t.user('VIEWER');
    const { page, problems } = await studio.open();
    // The decision as the API answers it once the judge has applied the gate's rules (docs/release-gate.md, "Rules").
    await page.route('**/api/v1/releases/decision?*', async (route) => {
      const response = await route.fetch();
      const decision = (await response.json()) as ReleaseDecision;
      decision.authorship = {
        ...decision.authorship,
        changed_files: { count: 3000, paths: ['infra/main.tf'], status: 'read', text: 'It changes 3,000 files.' },
        rules: [
          {
            name: 'infra needs SRE',
            met: false,
            triggered_by: ['infra/a.tf', 'infra/b.tf', 'infra/c.tf', 'infra/d.tf', 'infra/e.tf', 'infra/f.tf', 'infra/g.tf'],
            missing: 'needs 2 approvals from acme/sre; has 1: @ana',
            disapproved_by: ['bob'],
            approvals: [
              { login: 'ana', counted: true, reason: null },
              { login: 'eve', counted: false, reason: 'not_an_approver' },
            ],
          },
          { name: 'protected_paths', met: true, triggered_by: [], missing: null, disapproved_by: [], approvals: [] },
        ],
      };
      await route.fulfill({ response, json: decision });
    });
    await page.goto(`/studio#/releases/acme/widgets/${SHA}`);
    await studio.signIn(page, viewer.email, { navigate: false });
    await page.locator('#changed-files', { hasText: 'It changes 3,000 files.' }).waitFor();
    const rows = page.locator('#rules tbody tr');
    expect(await rows.nth(0).locator('td').allTextContents()).toEqual([
      'infra needs SRE',
      'unmet',
      'needs 2 approvals from acme/sre; has 1: @ana; changes requested by @bob',
      'infra/a.tf, infra/b.tf, infra/c.tf, infra/d.tf, infra/e.tf and 2 more',
      'ana',
    ]);
    expect(await rows.nth(1).locator('td').allTextContents()).toEqual(['protected_paths', 'met', '—', '—', 'none']);
    // On a phone the rows stack and each cell says its column.
    expect(await rows.nth(0).locator('td').nth(2).getAttribute('data-label')).toBe('Missing');
    expectNoProblems(problems);
  });

  it('shows no rules section for a decision that judged none', async () => {
    const viewer = await studio.t.user('VIEWER');
    const { page, problems } = await studio.open();
    await page.goto(`/studio#/releases/acme/widgets/${SHA}`);
    await studio.signIn(page, viewer.email, { navigate: false });
    await page.locator('#authorship').waitFor();
    expect(await page.locator('#rules').count()).toBe(0);
    expectNoProblems(problems);
  });
});
