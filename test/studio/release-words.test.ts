import { createHash, randomBytes } from 'node:crypto';
import { jest } from '@jest/globals';
import { describeInBrowser } from './support/describe-in-browser.js';
import { expectNoProblems, startStudio, type Studio } from './support/studio-harness.js';

jest.setTimeout(60_000);

describeInBrowser('studio: the release page in human words, and the evidence upload form', (executablePath) => {
  let studio: Studio;
  beforeAll(async () => {
    studio = await startStudio(executablePath);
  });
  afterAll(async () => {
    await studio?.close();
  });

  it('format.js: durations, relative times and people in words', async () => {
    const { page, problems } = await studio.open();
    await page.goto('/studio');
    const words = await page.evaluate(async () => {
      const f = await import('/studio/js/format.js' as string);
      const now = Date.parse('2026-05-01T12:00:00Z');
      const who = f.person({ id: '0b9e0c1e-7d35-4a8f-9d2b-3c1f2e4a5b6c', name: 'Priya Raman', email: 'priya@example.com' });
      const nobody = f.person({ id: '0b9e0c1e-7d35-4a8f-9d2b-3c1f2e4a5b6c' });
      const time = f.ago(new Date(Date.now() - 3 * 60_000).toISOString());
      return {
        durations: [604800, 2592000, 5400, 90, 45, 1, 0, 86400].map(f.duration),
        text: f.durationsInText('within the last 604800 s; max 3600 s, not 12 ss'),
        relative: [
          f.relativeTime('2026-05-01T11:57:00Z', now),
          f.relativeTime('2026-05-01T14:00:00Z', now),
          f.relativeTime('2026-04-24T12:00:00Z', now),
          f.relativeTime('2026-05-01T11:59:55Z', now),
          f.relativeTime('2026-05-02T11:59:30Z', now),
        ],
        who: [who.textContent, who.title],
        nobody: [nobody.textContent, nobody.title],
        time: [time.textContent, time.getAttribute('title'), time.tagName],
      };
    });
    expect(words.durations).toEqual([
      '7 days',
      '30 days',
      '1 hour 30 minutes',
      '1 minute 30 seconds',
      '45 seconds',
      '1 second',
      '0 seconds',
      '1 day',
    ]);
    expect(words.text).toBe('within the last 7 days; max 1 hour, not 12 ss');
    expect(words.relative).toEqual(['3 minutes ago', 'in 2 hours', '7 days ago', 'just now', 'in 1 day']);
    expect(words.who).toEqual(['Priya Raman', 'Priya Raman <priya@example.com>']);
    expect(words.nobody).toEqual(['0b9e0c1e', 'user 0b9e0c1e-7d35-4a8f-9d2b-3c1f2e4a5b6c']);
    expect(words.time[0]).toBe('3 minutes ago');
    expect(words.time[1]).toMatch(/\(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)$/);
    expect(words.time[2]).toBe('TIME');
    expectNoProblems(problems);
  });

  it('shows "7 days", who promoted by name, and "Upload evidence" turns the missing evidence into a met requirement', async () => {
    const unique = randomBytes(4).toString('hex');
    const repo = `acme/words-${unique}`;
    const sha = randomBytes(20).toString('hex');
    const evidence = `sbom-${unique}`;
    const { t } = studio;
    await t.request
      .put(`/api/v1/releases/gates/${repo}`)
      .set(t.admin.auth)
      .send({ required_evidence: [evidence] })
      .expect(201);

    // CI recorded something else for the commit, so the blocker names the missing evidence.
    const operator = await t.user('OPERATOR');
    await t.request
      .post('/api/v1/releases/evidence')
      .set(operator.auth)
      .send({
        ...{ repo_root: repo, commit_sha: sha },
        kind: 'lint',
        name: `lint-${unique}`,
        status: 'passed',
        produced_at: new Date().toISOString(),
      })
      .expect(201);

    // An approver rejects the first candidate: the history then names them.
    const approver = await t.user('APPROVER', `priya.${unique}@example.com`);
    const query = { repo_root: repo, commit_sha: sha };
    const first = await t.request.get('/api/v1/releases/decision').query(query).set(approver.auth).expect(200);
    await t.request
      .post('/api/v1/releases/promote')
      .set(approver.auth)
      .send({ snapshot_id: first.body.snapshot_id, target_status: 'rejected', release_label: null })
      .expect(201);

    const { page, problems } = await studio.open();
    await page.goto(`/studio#/releases/${repo}/${sha}`);
    await studio.signIn(page, t.admin.email, { navigate: false });
    await page.locator('#decision', { hasText: 'NO_SHIP' }).waitFor();

    // Durations in words: the gate's default evidence age is 604800 s.
    const requirement = page.locator('#requirements tbody tr', { hasText: evidence });
    expect(await requirement.locator('td').first().textContent()).toContain('within the last 7 days');
    expect(await page.locator('#requirements').textContent()).not.toContain('604800');

    // The promotion history names the approver, e-mail on hover.
    const by = page.locator('#promotions tbody tr').first().locator('td').last().locator('.person');
    expect(await by.textContent()).toBe(`priya.${unique}`);
    expect(await by.getAttribute('title')).toContain(`priya.${unique}@example.com`);
    // Every role reads the name (the API gives it beside the id), not only an ADMIN.
    const viewer = await t.user('VIEWER');
    const asViewer = await studio.open();
    await asViewer.page.goto(`/studio#/releases/${repo}/${sha}`);
    await studio.signIn(asViewer.page, viewer.email, { navigate: false });
    await asViewer.page.locator('#promotions .person', { hasText: `priya.${unique}` }).waitFor();
    expectNoProblems(asViewer.problems);

    // The blocker reads as an action; the API's words stay in a collapsed disclosure.
    const blocker = page.locator('#blockers li', { hasText: 'required_evidence_missing' });
    expect(await blocker.locator('.action').textContent()).toBe(`Upload the evidence “${evidence}” for this commit. Upload evidence`);
    expect(await blocker.locator('details.api-remediation').getAttribute('open')).toBeNull();
    expect(await blocker.locator('.remediation').isVisible()).toBe(false);
    expect(await blocker.locator('.remediation').textContent()).toContain('POST /api/v1/releases/evidence');
    expect(await blocker.locator('.action').textContent()).not.toContain('POST');

    await blocker.getByRole('button', { name: 'Upload evidence' }).click();
    const form = page.locator('#evidence-upload');
    await form.waitFor();
    expect(await form.locator('input[name=name]').inputValue()).toBe(evidence);
    await form.getByLabel('Kind').fill('sbom');
    await form.getByLabel('Status').selectOption('passed');
    const bytes = Buffer.from(`{"report": "${unique}"}\n`);
    await form.locator('input[type=file]').setInputFiles({ name: 'sbom.json', mimeType: 'application/json', buffer: bytes });
    const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
    await page.locator('#evidence-digest', { hasText: digest }).waitFor();
    await form.getByLabel('URI').fill(`https://ci.example.com/runs/${unique}`);
    await form.getByRole('button', { name: 'Upload', exact: true }).click();

    await page.locator('#decision', { hasText: /^SHIP$/ }).waitFor();
    await page.reload();
    await page.locator('#decision', { hasText: /^SHIP$/ }).waitFor();
    expect(await page.locator('#blockers').textContent()).toBe('No blockers.');
    expect(await page.locator('#requirements tbody tr', { hasText: evidence }).locator('td').nth(2).textContent()).toBe('met');
    const stored = page.locator('#uploaded-evidence tbody tr', { hasText: evidence });
    expect(await stored.locator('td').allTextContents()).toEqual(['sbom', evidence, 'passed', '—', digest, expect.any(String)]);
    expectNoProblems(problems);
  });

  it('the upload form shows the API’s refusal and stores nothing', async () => {
    const unique = randomBytes(4).toString('hex');
    const repo = `acme/refused-${unique}`;
    const sha = randomBytes(20).toString('hex');
    const operator = await studio.t.user('OPERATOR');
    const { page } = await studio.open();
    await page.goto(`/studio#/releases/${repo}/${sha}`);
    await studio.signIn(page, operator.email, { navigate: false });
    await page.locator('#open-evidence-upload').click();
    const form = page.locator('#evidence-upload');
    await form.getByLabel('Name').fill('tests');
    await form.getByLabel('Kind').fill('tests');
    await form
      .locator('input[type=file]')
      .setInputFiles({ name: 'junit.xml', mimeType: 'application/xml', buffer: Buffer.from('<testsuite') });
    await page.locator('#evidence-digest', { hasText: 'sha256:' }).waitFor();
    await form.getByLabel(/Send the document/).check();
    await form.getByRole('button', { name: 'Upload', exact: true }).click();
    await form.locator('.error').waitFor();
    expect(await form.locator('.error').textContent()).toMatch(/content/);
    expect(await page.locator('#provenance').textContent()).toContain('None uploaded.');
  });

  it('an empty list says why it is empty and what to do: a viewer sees only their own runs', async () => {
    const viewer = await studio.t.user('VIEWER');
    const { page, problems } = await studio.open();
    await studio.signIn(page, viewer.email);
    await page.goto('/studio#/executions');
    await page.locator('.empty', { hasText: 'You have no executions yet: as a viewer you see only your own.' }).waitFor();
    expect(await page.locator('.empty').textContent()).toContain('An operator starts them');
    await page.goto('/studio#/workflows');
    await page.locator('.empty', { hasText: 'You have no workflows yet: as a viewer you see only your own.' }).waitFor();
    expectNoProblems(problems);
  });
});
