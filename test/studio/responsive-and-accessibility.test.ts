import fs from 'node:fs';
import path from 'node:path';
import { jest } from '@jest/globals';
import type { Page } from 'playwright-core';
import { STUDIO_DIR } from '../../api/studio-routes.js';
import { toolDefinition } from '../../core/mcp/tool-definition.js';
import { waitFor } from '../executions/support/wait-for.js';
import { startFakeLlm, type FakeLlm } from '../fakes/fake-llm-server.js';
import { seriousViolations, withAxe, type AxeFinding } from './support/axe.js';
import { describeInBrowser } from './support/describe-in-browser.js';
import { startStudio, type Studio } from './support/studio-harness.js';

jest.setTimeout(180_000);

const SHA = 'b'.repeat(40);
const REPO = `acme/a11y-${Date.now().toString(36)}`;
const PHONE = { width: 390, height: 844 };

/** The patterns of studio/js/routes.js, read from its source: every route must be visited below. */
function studioRoutes(): RegExp[] {
  const source = fs.readFileSync(path.join(STUDIO_DIR, 'js', 'routes.js'), 'utf8');
  return [...source.matchAll(/^\s*\[\/(.+?)\/,\s*\w+/gm)].map((m) => new RegExp(m[1]));
}

describeInBrowser('studio: phone screens, accessibility and page titles', (executablePath) => {
  let llm: FakeLlm;
  let studio: Studio;
  let hashes: string[];
  beforeAll(async () => {
    llm = await startFakeLlm();
    llm.otherwise(() => ({ text: 'Checked.' }));
    studio = await startStudio(executablePath, llm.env());
    const admin = studio.t.admin.auth;
    const execution = await studio.t.request
      .post('/api/v1/tasks')
      .set(admin)
      .send({ task: 'Check the release notes.', repo_root: REPO, commit_sha: SHA })
      .expect(201);
    const workflow = await studio.t.request
      .post('/api/v1/workflows')
      .set(admin)
      .send({ name: 'Accessible release', stages: [{ id: 'only', name: 'Only', task: 'Summarise it.' }] })
      .expect(201);
    await studio.t.request
      .put(`/api/v1/releases/gates/${REPO}`)
      .set(admin)
      .send({ required_evidence: ['sbom-scan'], require_reviewed_release: false })
      .expect(201);
    // An MCP server with a tool awaiting approval: its approved and changed definitions side by side.
    await studio.t.request.post('/api/v1/mcp/servers').set(admin).send({ name: 'a11y', url: 'http://127.0.0.1:9/mcp' }).expect(201);
    for (const description of ['Reads a file.', 'Reads a file, and any other file too.'])
      await studio.t.deps.mcpToolPins.reconcile('a11y', [toolDefinition({ name: 'read', description, inputSchema: { type: 'object' } })]);
    await waitFor(
      async () => (await studio.t.request.get(`/api/v1/executions/${execution.body.id}`).set(admin)).body.status,
      (status) => status === 'completed',
      20_000,
    );
    const candidates = [
      '#/executions',
      '#/executions/new',
      `#/executions/${execution.body.id}`,
      '#/workflows',
      '#/workflows/new',
      `#/workflows/${workflow.body.id}`,
      '#/releases',
      `#/releases/${REPO}/${SHA}`,
      '#/repos',
      `#/repos/${REPO}`,
      `#/repos/${REPO}/gate`,
      '#/policies',
      '#/policies/sox',
      '#/users',
      '#/github',
      '#/account',
      '#/deliveries',
      '#/installations',
      '#/mcp',
      '#/agent-calls',
    ];
    const routes = studioRoutes();
    const unvisited = routes.filter((route) => !candidates.some((hash) => route.test(hash))).map(String);
    // A route added to routes.js needs a page here (with its fixture) to be checked.
    expect(unvisited).toEqual([]);
    hashes = [...candidates.filter((hash) => routes.some((route) => route.test(hash))), '#/no-such-page'];
  });
  afterAll(async () => {
    await studio?.close();
    await llm?.close();
  });

  /** A full load of the page (the key stays in sessionStorage), then the page has drawn itself and titled the tab. */
  async function visit(page: Page, hash: string) {
    await page.goto('about:blank');
    await page.goto(`/studio${hash}`);
    await page.waitForFunction(() => {
      // The test project has no DOM types.
      const doc = (globalThis as unknown as { document: { title: string; getElementById(id: string): { textContent: string } } }).document;
      return !['shipgate studio', 'shipgate'].includes(doc.title) && !doc.getElementById('page').textContent.includes('Loading…');
    });
  }

  async function signedIn(role: 'ADMIN' | 'VIEWER', viewport?: { width: number; height: number }) {
    const { context, page } = await studio.open();
    await withAxe(context);
    if (viewport) await page.setViewportSize(viewport);
    const email = role === 'ADMIN' ? studio.t.admin.email : (await studio.t.user('VIEWER')).email;
    await studio.signIn(page, email);
    return page;
  }

  for (const role of ['ADMIN', 'VIEWER'] as const) {
    it(`at 390x844 as ${role}, no page scrolls sideways and Sign out is visible and reachable`, async () => {
      const page = await signedIn(role, PHONE);
      const problems: string[] = [];
      for (const hash of hashes) {
        await visit(page, hash);
        const width = await page.evaluate<number>('document.documentElement.scrollWidth');
        if (width > PHONE.width) problems.push(`${hash}: scrollWidth ${width}`);
        const signOut = page.locator('#sign-out');
        const box = await signOut.boundingBox();
        if (!(await signOut.isVisible()) || !box || box.x < 0 || box.x + box.width > PHONE.width || box.y + box.height > PHONE.height)
          problems.push(`${hash}: Sign out not in view (${JSON.stringify(box)})`);
        await signOut.focus();
        if ((await page.evaluate('document.activeElement?.id')) !== 'sign-out') problems.push(`${hash}: Sign out cannot take focus`);
        const h1s = await page.locator('h1').count();
        if (h1s !== 1) problems.push(`${hash}: ${h1s} h1 elements`);
      }
      expect(problems).toEqual([]);

      // The sections fold behind "Menu"; opening it shows every link inside the screen.
      await visit(page, '#/executions');
      const sections = page.locator('#nav-sections a');
      expect(await sections.first().isVisible()).toBe(false);
      await page.locator('#menu-toggle').click();
      expect(await page.locator('#menu-toggle').getAttribute('aria-expanded')).toBe('true');
      const links = await sections.evaluateAll((as) => as.map((a) => [a.textContent, a.getBoundingClientRect().right]));
      expect(links.map(([text]) => text)).toEqual(
        role === 'ADMIN'
          ? [
              'Executions',
              'Workflows',
              'Releases',
              'Repositories',
              'Policies',
              'Users',
              'GitHub',
              'Deliveries',
              'Installations',
              'MCP servers',
              'Pending calls',
              'Account',
            ]
          : ['Executions', 'Workflows', 'Releases', 'Repositories', 'Policies', 'Account'],
      );
      for (const [, right] of links) expect(Number(right)).toBeLessThanOrEqual(PHONE.width);
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
    });

    it(`as ${role}, axe-core finds no serious or critical violation on any page, and each route has its own title`, async () => {
      const findings: AxeFinding[] = [];
      const titles: [string, string][] = [];
      const page = await signedIn(role);
      for (const hash of hashes) {
        await visit(page, hash);
        titles.push([hash, await page.title()]);
        findings.push(...(await seriousViolations(page, hash)));
      }
      // The phone layout, its menu open.
      await page.setViewportSize(PHONE);
      await page.locator('#menu-toggle').click();
      findings.push(...(await seriousViolations(page, 'phone menu')));
      expect(findings).toEqual([]);
      for (const [, title] of titles) expect(title).toMatch(/ · shipgate$/);
      // Every route has its own title for every role: a VIEWER refused another person's run or an ADMIN page reads which.
      const repeated = titles.filter(([, title], i) => titles.findIndex(([, other]) => other === title) !== i);
      expect(repeated).toEqual([]);
    });
  }

  it('titles the sign-in page and the live region is in place for status changes', async () => {
    const { page } = await studio.open();
    await page.goto('/studio');
    await page.locator('#sign-in-form').waitFor();
    expect(await page.title()).toBe('Sign in to shipgate · shipgate');
    expect(await page.locator('#announcer').getAttribute('aria-live')).toBe('polite');
  });
});
