import type { TestApp } from '../support/test-app.js';
import { useAskingGateway, textOf, type CallResult } from './support/asking-gateway.js';

const gateway = useAskingGateway();
const { agent, heldCall } = gateway;
let t: TestApp;
beforeAll(() => {
  t = gateway.t;
});

/** A gateway call held for approval in a new session, and an approver who may decide it. */
async function greetingHeldFor(who: string, approverEmail: string) {
  const { id, client } = await agent();
  const call = client.callTool({ name: 'ask__greet', arguments: { who } }) as Promise<CallResult>;
  const held = await heldCall(id);
  return { id, call, held, approver: await t.user('APPROVER', approverEmail) };
}

describe('a decision and the end of the session are ordered (docs/mcp-gateway.md, "Asking a person")', () => {
  it('refuses an approval made right after the session is closed (409): the call is not made', async () => {
    const { id, call, held, approver } = await greetingHeldFor('closed', 'after-close@example.com');
    // No pause between them: the held request's poll (250 ms) has not yet seen the close.
    await t.request.post(`/api/v1/agent-sessions/${id}/close`).set(t.admin.auth).expect(200);
    const late = await t.request
      .post(`/api/v1/agent-calls/${held.id as string}/approve`)
      .set(approver.auth)
      .send({});
    expect(late.status).toBe(409);
    expect(late.body.detail).toMatch(/session has ended/);
    const result = await call;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/session ended while the call awaited approval/);
    const execution = (await t.request.get(`/api/v1/executions/${id}`).set(t.admin.auth).expect(200)).body;
    expect(execution.tool_calls).toEqual([]);
  }, 30_000);

  it('tells an approver the session ended once the held call was settled by its end, not that it was "already decided"', async () => {
    const { id, call, held, approver } = await greetingHeldFor('settled', 'after-settle@example.com');
    await t.request.post(`/api/v1/agent-sessions/${id}/close`).set(t.admin.auth).expect(200);
    // The agent's answer comes once the held request has seen the close and settled the call.
    expect(textOf(await call)).toMatch(/session ended while the call awaited approval/);
    const late = await t.request
      .post(`/api/v1/agent-calls/${held.id as string}/approve`)
      .set(approver.auth)
      .send({});
    expect(late.status).toBe(409);
    expect(late.body.detail).toMatch(/session has ended/);
  }, 30_000);

  it('refuses an approval made right after the session is cancelled (409): nothing is recorded into the cancelled session', async () => {
    const { id, client } = await agent();
    const call = client.callTool({ name: 'ask__greet', arguments: { who: 'cancelled' } }) as Promise<CallResult>;
    const held = await heldCall(id);
    const approver = await t.user('APPROVER', 'after-cancel@example.com');
    await t.request.delete(`/api/v1/executions/${id}`).set(t.admin.auth).expect(200);
    const late = await t.request
      .post(`/api/v1/agent-calls/${held.id as string}/approve`)
      .set(approver.auth)
      .send({});
    expect(late.status).toBe(409);
    const result = await call;
    expect(result.isError).toBe(true);
    expect(textOf(result)).not.toMatch(/hello/);
    const execution = (await t.request.get(`/api/v1/executions/${id}`).set(t.admin.auth).expect(200)).body;
    expect(execution.status).toBe('cancelled');
    expect(execution.tool_calls).toEqual([]);
  }, 30_000);

  it("refuses an approval of a call held before its session's agent key was revoked (409): the call is not made", async () => {
    const created = await t.request
      .post('/api/v1/agent-keys')
      .set(t.admin.auth)
      .send({
        name: 'asks-with-key',
        repo_root: 'acme/shop',
        compliance_policy: 'asking',
        servers: ['ask'],
        permissions: ['mcp:ask/*', 'repo:write'],
      });
    expect(created.status).toBe(201);
    const client = await gateway.connect(created.body.mcp_url, created.body.key);
    const call = client.callTool({ name: 'ask__greet', arguments: { who: 'revoked' } }) as Promise<CallResult>;
    let held: Record<string, unknown> | undefined;
    for (let i = 0; i < 50 && !held; i++) {
      const pending = (await t.request.get('/api/v1/agent-calls/pending').set(t.admin.auth).expect(200)).body as Record<string, unknown>[];
      held = pending.find((p) => (p.arguments as { who?: string } | null)?.who === 'revoked');
      if (!held) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(held).toBeDefined();
    await t.request
      .delete(`/api/v1/agent-keys/${created.body.id as string}`)
      .set(t.admin.auth)
      .expect(204);
    const approver = await t.user('APPROVER', 'after-revoke@example.com');
    const late = await t.request
      .post(`/api/v1/agent-calls/${held?.id as string}/approve`)
      .set(approver.auth)
      .send({});
    expect(late.status).toBe(409);
    const result = await call;
    expect(result.isError).toBe(true);
    expect(textOf(result)).not.toMatch(/hello/);
    const execution = (
      await t.request
        .get(`/api/v1/executions/${held?.execution_id as string}`)
        .set(t.admin.auth)
        .expect(200)
    ).body;
    expect(execution.tool_calls).toEqual([]);
  }, 30_000);
});

describe('the pending list (docs/mcp-gateway.md, "Asking a person")', () => {
  it('pages, oldest first, with the next page in Link, and cuts large arguments (whole at GET /agent-calls/{id})', async () => {
    const first = await agent();
    const second = await agent();
    const big = 'x'.repeat(64 * 1024);
    const calls = [first.client.callTool({ name: 'ask__greet', arguments: { who: big } }) as Promise<CallResult>];
    const one = await heldCall(first.id);
    calls.push(second.client.callTool({ name: 'ask__greet', arguments: { who: 'small' } }) as Promise<CallResult>);
    const two = await heldCall(second.id);
    expect(one).toMatchObject({ arguments: null, arguments_truncated: true });
    expect((one.arguments_excerpt as string).length).toBe(4096);
    expect(one.arguments_excerpt as string).toMatch(/^\{"who": "xxx/);
    expect(two).toMatchObject({ arguments: { who: 'small' }, arguments_truncated: false, arguments_excerpt: null });

    const pages: string[] = [];
    let url: string | null = '/api/v1/agent-calls/pending?limit=1';
    while (url) {
      const res: { body: { id: string }[]; headers: Record<string, string> } = await t.request.get(url).set(t.admin.auth).expect(200);
      expect(res.body).toHaveLength(1);
      pages.push(res.body[0].id);
      url = /<([^>]+)>;\s*rel="next"/.exec(res.headers.link ?? '')?.[1] ?? null;
    }
    expect(pages.indexOf(one.id as string)).toBeGreaterThanOrEqual(0);
    expect(pages.indexOf(one.id as string)).toBeLessThan(pages.indexOf(two.id as string));

    const whole = await t.request
      .get(`/api/v1/agent-calls/${one.id as string}`)
      .set(t.admin.auth)
      .expect(200);
    expect(whole.body.arguments).toEqual({ who: big });
    const approver = await t.user('APPROVER', 'pages@example.com');
    for (const held of [one, two])
      await t.request
        .post(`/api/v1/agent-calls/${held.id as string}/deny`)
        .set(approver.auth)
        .send({ reason: 'paged' })
        .expect(200);
    await Promise.all(calls);
  }, 30_000);
});
