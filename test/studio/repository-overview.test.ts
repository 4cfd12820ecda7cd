import { randomBytes } from 'node:crypto';
import { jest } from '@jest/globals';
import { describeInBrowser } from './support/describe-in-browser.js';
import { expectNoProblems, startStudio, type Studio } from './support/studio-harness.js';

jest.setTimeout(90_000);

const sha = () => randomBytes(20).toString('hex');

describeInBrowser('studio: the repository overview', (executablePath) => {
  let studio: Studio;
  // A repository of this run only: other suites' decisions never reach its lists.
  const owner = `overview-${randomBytes(4).toString('hex')}`;
  const repoRoot = `${owner}/svc`;
  const shipped = sha();
  const blocked = sha();
  const others = Array.from({ length: 28 }, sha);

  beforeAll(async () => {
    studio = await startStudio(executablePath);
    const { request, admin } = studio.t;
    await request
      .put(`/api/v1/releases/gates/${repoRoot}`)
      .set(admin.auth)
      .send({ required_evidence: ['unit-tests'], require_reviewed_release: false })
      .expect(201);
    const operator = await studio.t.user('OPERATOR');
    await request
      .post('/api/v1/releases/evidence')
      .set(operator.auth)
      .send({
        repo_root: repoRoot,
        commit_sha: shipped,
        kind: 'test-report',
        name: 'unit-tests',
        status: 'passed',
        produced_at: new Date().toISOString(),
      })
      .expect(201);
    // Each GET /releases/decision records the commit's snapshot: 1 SHIP, then 29 NO_SHIP commits.
    const decide = (commit: string) =>
      request.get(`/api/v1/releases/decision?${new URLSearchParams({ repo_root: repoRoot, commit_sha: commit })}`).set(admin.auth);
    const ship = await decide(shipped).expect(200);
    expect(ship.body.decision).toBe('SHIP');
    for (const commit of [...others, blocked]) expect((await decide(commit).expect(200)).body.decision).toBe('NO_SHIP');
    await request
      .post('/api/v1/releases/promote')
      .set(admin.auth)
      .send({ snapshot_id: ship.body.snapshot_id, target_status: 'attested', release_label: 'v2.0.0' })
      .expect(201);
    // The GitHub App recorded a pull request whose head is the blocked commit.
    await studio.t.database.db.raw(
      `INSERT INTO github_pull_requests (repo_root, number, head_sha, head_ref, base_ref, state, updated_at) VALUES (?, 7, ?, 'feature', 'main', 'open', now())`,
      [repoRoot, blocked],
    );
    // Pull request #8's head was judged by the gate's rules (docs/release-gate.md, "Rules"): its snapshot binds them.
    const outcome = (name: string, met: boolean) => ({
      name,
      met,
      triggered_by: [],
      missing: met ? null : 'needs 1 approval',
      disapproved_by: [],
      approvals: [],
    });
    await studio.t.database.db.raw(
      `UPDATE snapshots SET provenance = jsonb_set(provenance, '{authorship}', ?::jsonb) WHERE repo_root = ? AND commit_sha = ?`,
      [JSON.stringify({ rules: [outcome('infra needs SRE', false), outcome('protected_paths', true)] }), repoRoot, others[0]],
    );
    await studio.t.database.db.raw(
      `INSERT INTO github_pull_requests (repo_root, number, head_sha, head_ref, base_ref, state, updated_at) VALUES (?, 8, ?, 'infra', 'main', 'open', now())`,
      [repoRoot, others[0]],
    );
  });
  afterAll(async () => {
    await studio?.close();
  });

  it('shows the gate version, 30 commits with their decisions, a pull request’s check, the latest release and a chart whose text matches the counts', async () => {
    const viewer = await studio.t.user('VIEWER');
    const { page, problems } = await studio.open();
    await studio.signIn(page, viewer.email);
    await page.goto('/studio#/repos');
    await page.locator('#repo-lookup input[name=repo_root]').fill(`https://github.com/${repoRoot}`);
    await page.locator('#repo-lookup button[type=submit]').click();
    await page.waitForURL(new RegExp(`#/repos/${repoRoot}$`));

    expect(await page.locator('#gate-version').textContent()).toBe('1');
    expect(await page.locator('#gate').textContent()).toContain('unit-tests');

    const rows = page.locator('#commits tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(30);
    // Newest evaluation first: the last commit decided leads the list, the SHIP one closes it.
    expect(await rows.first().locator('td').nth(0).textContent()).toBe(blocked.slice(0, 12));
    expect(await rows.first().locator('td').nth(1).textContent()).toBe('NO_SHIP');
    expect(await rows.first().locator('td').nth(4).textContent()).toBe('#7');
    const pulls = page.locator('#pull-requests tbody tr');
    expect(await pulls.nth(0).locator('td').allTextContents()).toEqual([
      '#7',
      blocked.slice(0, 12),
      'NO_SHIP',
      'not judged',
      expect.any(String),
    ]);
    // Which rules applied to each recent pull request, met or not.
    expect(await pulls.nth(1).locator('td').allTextContents()).toEqual([
      '#8',
      others[0].slice(0, 12),
      'NO_SHIP',
      'infra needs SRE unmetprotected_paths met',
      expect.any(String),
    ]);
    expect(await pulls.nth(1).locator('td[data-label="Rules that applied"] li').allTextContents()).toEqual([
      'infra needs SRE unmet',
      'protected_paths met',
    ]);
    const shipRow = page.locator('#commits tbody tr', { hasText: shipped.slice(0, 12) });
    expect(await shipRow.locator('td').nth(1).textContent()).toBe('SHIP');
    expect(await shipRow.locator('td').nth(2).textContent()).toBe('attested');
    expect(await shipRow.locator('a').first().getAttribute('href')).toBe(`#/releases/${repoRoot}/${shipped}`);

    const attested = page.locator('#releases tr[data-status=attested] td');
    expect(await attested.allTextContents()).toEqual(['attested', shipped.slice(0, 12), 'v2.0.0', expect.any(String)]);
    expect(await page.locator('#releases tr[data-status=promoted] td').nth(1).textContent()).toBe('none yet');

    // The chart is an image to assistive technology, and its words carry the figures.
    const chart = page.locator('#decisions-chart svg[role=img]');
    const label = await chart.getAttribute('aria-label');
    const today = new Date().toISOString().slice(0, 10);
    expect(label).toContain('1 SHIP and 29 NO_SHIP in all.');
    expect(label).toContain(`${today}: 1 SHIP, 29 NO_SHIP`);
    expect(await page.locator('#decisions-summary').textContent()).toBe(label);
    expect(await chart.locator('rect').count()).toBe(2);
    await page.locator('#decisions-chart summary').click();
    expect(await page.locator('#decisions-table tbody tr', { hasText: today }).locator('td').allTextContents()).toEqual([today, '1', '29']);
    expect(await page.locator('#top-blockers svg[role=img]').getAttribute('aria-label')).toMatch(/^Most frequent blockers: \w+ 29 times/);
    expectNoProblems(problems);
  });
});
