import { jest } from '@jest/globals';
import { reviewedRelease } from '../workflows/support/stage-model.js';
import { describeInBrowser } from './support/describe-in-browser.js';
import { expectNoProblems, startStudio, type Studio } from './support/studio-harness.js';

jest.setTimeout(60_000);

describeInBrowser("studio: everyone's runs name their owner", (executablePath) => {
  let studio: Studio;
  beforeAll(async () => {
    studio = await startStudio(executablePath);
    const owner = await studio.t.user('OPERATOR', 'olive.owner@example.com');
    await studio.t.request.post('/api/v1/tasks').set(owner.auth).send({ task: 'Owned by Olive.' }).expect(201);
    await studio.t.request
      .post('/api/v1/workflows')
      .set(owner.auth)
      .send(reviewedRelease({ name: 'Olive’s workflow' }))
      .expect(201);
  });
  afterAll(async () => {
    await studio?.close();
  });

  for (const role of ['AUDITOR', 'ADMIN'] as const) {
    it(`an ${role} listing everyone's executions and workflows reads the owner's name, with the e-mail unknown to it`, async () => {
      const viewer = role === 'ADMIN' ? studio.t.admin : await studio.t.user(role);
      const { page, problems } = await studio.open();
      await studio.signIn(page, viewer.email);
      for (const [hash, text] of [
        ['#/executions?scope=all', 'Owned by Olive.'],
        ['#/workflows?scope=all', 'Olive’s workflow'],
      ]) {
        await page.goto(`/studio${hash}`);
        const row = page.locator('table.grid tbody tr', { hasText: text });
        await row.waitFor();
        expect(await row.locator('.person').textContent()).toBe('olive.owner');
      }
      expectNoProblems(problems);
    });
  }
});
