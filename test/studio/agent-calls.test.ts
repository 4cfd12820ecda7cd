import { jest } from '@jest/globals';
import { startChangingUpstream, type ChangingUpstream } from '../mcp/support/changing-upstream.js';
import { mcpClient } from '../mcp/support/everything-upstream.js';
import { describeInBrowser } from './support/describe-in-browser.js';
import { expectNoProblems, startStudio, type Studio } from './support/studio-harness.js';

jest.setTimeout(90_000);

describeInBrowser('studio: the pending calls page (APPROVER, ADMIN)', (executablePath) => {
  let studio: Studio;
  let upstream: ChangingUpstream;
  beforeAll(async () => {
    upstream = await startChangingUpstream();
    studio = await startStudio(executablePath);
    const admin = studio.t.admin.auth;
    await studio.t.request
      .post('/api/v1/mcp/servers')
      .set(admin)
      .send({ name: 'ask', url: upstream.url, tools: { greet: ['repo:write'] } })
      .expect(201);
    await studio.t.request
      .post('/api/v1/policies')
      .set(admin)
      .send({ name: 'asking', ceiling: ['mcp:ask/*', 'repo:write'], ask: ['repo:write'], ask_timeout_seconds: 60 })
      .expect(201);
  });
  afterAll(async () => {
    await studio?.close();
    await upstream?.close();
  });

  it('lets an independent APPROVER approve a held call, and the agent gets the upstream’s result', async () => {
    const opened = await studio.t.request
      .post('/api/v1/agent-sessions')
      .set(studio.t.admin.auth)
      .send({
        name: 'asks',
        repo_root: 'acme/shop',
        servers: ['ask'],
        compliance_policy: 'asking',
        permissions: ['mcp:ask/*', 'repo:write'],
      })
      .expect(201);
    // The session's mcp_url names the configured public URL; the studio's server listens on its own port.
    const mcpUrl = new URL(new URL(opened.body.mcp_url as string).pathname, studio.baseUrl).href;
    const client = await mcpClient(mcpUrl, { Authorization: `Bearer ${opened.body.token}` });
    try {
      const { page, problems } = await studio.open();
      const approver = await studio.t.user('APPROVER', 'grace@example.com');
      await studio.signIn(page, approver.email);
      await page.locator('nav a[href="#/agent-calls"]', { hasText: 'Pending calls' }).click();
      await page.locator('p.notice', { hasText: 'No agent call is waiting' }).waitFor();

      // The call arrives while the page is open: it shows up at the next poll.
      const call = client.callTool({ name: 'ask__greet', arguments: { who: 'ada' } });
      const row = page.locator('tr[data-call]', { hasText: 'ask__greet' });
      await row.waitFor();
      expect(await row.textContent()).toContain('repo:write');
      expect(await row.textContent()).toContain('"ada"');
      await row.getByRole('button', { name: 'Approve ask__greet' }).click();
      await row.waitFor({ state: 'detached' });

      const result = await call;
      expect(result.isError).toBeFalsy();
      expect((result.content as { text: string }[])[0].text).toBe('hello ada');
      const execution = (await studio.t.request.get(`/api/v1/executions/${opened.body.id}`).set(studio.t.admin.auth).expect(200)).body;
      const [certificate] = (execution.certificates as { kind: string; envelope: { payload: string } }[]).filter(
        (c) => c.kind === 'tool_call',
      );
      const statement = JSON.parse(Buffer.from(certificate.envelope.payload, 'base64').toString('utf8'));
      expect(statement.predicate.approved_by).toEqual({ id: approver.id, name: expect.any(String) });
      expectNoProblems(problems);
    } finally {
      await client.close();
    }
  });

  it('shows an OPERATOR no pending calls page', async () => {
    const { page, problems } = await studio.open();
    const operator = await studio.t.user('OPERATOR');
    await studio.signIn(page, operator.email);
    expect(await page.locator('nav a[href="#/agent-calls"]').count()).toBe(0);
    expectNoProblems(problems);
  });
});
