import http from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startChangingUpstream, type ChangingUpstream } from './support/changing-upstream.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { freePort, mcpClient } from './support/everything-upstream.js';

let t: TestApp;
let shipgate: http.Server;
let upstream: ChangingUpstream;
const clients: Client[] = [];

beforeAll(async () => {
  upstream = await startChangingUpstream();
  const port = await freePort();
  t = await createTestApp({ SHIPGATE_PUBLIC_URL: `http://127.0.0.1:${port}` });
  shipgate = http.createServer(t.app.callback());
  await new Promise<void>((resolve) => shipgate.listen(port, '127.0.0.1', resolve));
  await t.request
    .post('/api/v1/mcp/servers')
    .set(t.admin.auth)
    .send({ name: 'ask', url: upstream.url, tools: { greet: ['repo:write'] } })
    .expect(201);
  await t.request
    .post('/api/v1/policies')
    .set(t.admin.auth)
    .send({ name: 'asking', ceiling: ['mcp:ask/*', 'repo:write'], ask: ['repo:write'], ask_timeout_seconds: 5 })
    .expect(201);
}, 60_000);

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  shipgate?.closeAllConnections();
  await new Promise((resolve) => shipgate?.close(resolve));
  await t?.close();
  await upstream?.close();
});

/** A session under the `asking` policy, owned by `owner` (an ADMIN opens sessions). */
async function agent(): Promise<{ id: string; client: Client }> {
  const res = await t.request
    .post('/api/v1/agent-sessions')
    .set(t.admin.auth)
    .send({
      name: 'asks',
      repo_root: 'acme/shop',
      servers: ['ask'],
      compliance_policy: 'asking',
      permissions: ['mcp:ask/*', 'repo:write'],
    });
  expect(res.status).toBe(201);
  const client = await mcpClient(res.body.mcp_url, { Authorization: `Bearer ${res.body.token}` });
  clients.push(client);
  return { id: res.body.id, client };
}

type CallResult = { isError?: boolean; content: unknown };
const textOf = (result: CallResult) => (result.content as { text: string }[])[0].text;

/** The held call of `session`, once the gateway shows it to approvers. */
async function heldCall(session: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 50; i++) {
    const pending = (await t.request.get('/api/v1/agent-calls/pending').set(t.admin.auth).expect(200)).body as Record<string, unknown>[];
    const mine = pending.find((p) => p.execution_id === session);
    if (mine) return mine;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the call was never held');
}

async function predicate(id: string, seq: number): Promise<Record<string, unknown>> {
  const execution = (await t.request.get(`/api/v1/executions/${id}`).set(t.admin.auth).expect(200)).body;
  const statements = (execution.certificates as { kind: string; envelope: { payload: string } }[])
    .filter((c) => c.kind === 'tool_call')
    .map(
      (c) =>
        JSON.parse(Buffer.from(c.envelope.payload, 'base64').toString('utf8')) as {
          predicateType: string;
          predicate: Record<string, unknown>;
        },
    );
  const found = statements.find((s) => s.predicate.seq === seq);
  return { type: found?.predicateType, ...found?.predicate };
}

describe('the ask verdict (docs/mcp-gateway.md, "Asking a person")', () => {
  it('refuses an asked capability outside the ceiling at policy creation', async () => {
    const res = await t.request
      .post('/api/v1/policies')
      .set(t.admin.auth)
      .send({ name: 'bad-ask', ceiling: ['repo:read'], ask: ['repo:write'] });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toMatch(/not within the ceiling/);
  });

  it('holds a call until an independent APPROVER approves it; the owner may not; the certificate names the approver', async () => {
    const { id, client } = await agent();
    const call = client.callTool({ name: 'ask__greet', arguments: { who: 'ada' } }) as Promise<CallResult>;
    const held = await heldCall(id);
    expect(held).toMatchObject({
      tool: 'ask__greet',
      capability: 'repo:write',
      arguments: { who: 'ada' },
      owner_id: t.admin.id,
      decision: null,
    });

    const own = await t.request
      .post(`/api/v1/agent-calls/${held.id as string}/approve`)
      .set(t.admin.auth)
      .send({});
    expect(own.status).toBe(403);
    expect(own.body.detail).toMatch(/You own the agent session/);
    const operator = await t.user('OPERATOR');
    await t.request
      .post(`/api/v1/agent-calls/${held.id as string}/approve`)
      .set(operator.auth)
      .send({})
      .expect(403);

    const approver = await t.user('APPROVER', 'grace@example.com');
    const approved = await t.request
      .post(`/api/v1/agent-calls/${held.id as string}/approve`)
      .set(approver.auth)
      .send({});
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ decision: 'approved', decided_by: approver.id });
    const result = await call;
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('hello ada');
    expect(await predicate(id, 1)).toMatchObject({ theorem: 'action_safe', approved_by: { id: approver.id } });
    const entries = (await t.request.get(`/api/v1/executions/${id}`).set(t.admin.auth).expect(200)).body.tool_calls;
    expect(entries[0]).toMatchObject({ seq: 1, verdict: 'allowed', approved_by: { id: approver.id, name: expect.any(String) } });
    // Decided once: a second decision is refused.
    await t.request
      .post(`/api/v1/agent-calls/${held.id as string}/deny`)
      .set(approver.auth)
      .send({ reason: 'too late' })
      .expect(409);
  }, 30_000);

  it('tells the agent who denied a call and why, and records it denied', async () => {
    const { id, client } = await agent();
    const call = client.callTool({ name: 'ask__greet', arguments: { who: 'bob' } }) as Promise<CallResult>;
    const held = await heldCall(id);
    const approver = await t.user('APPROVER', 'linus@example.com');
    await t.request
      .post(`/api/v1/agent-calls/${held.id as string}/deny`)
      .set(approver.auth)
      .send({ reason: 'not on a Friday' })
      .expect(200);
    const result = await call;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^DENIED: denied_by_approver: repo:write: .* denied it: not on a Friday$/);
    const denier = { id: approver.id, name: expect.any(String), reason: 'not on a Friday' };
    expect(await predicate(id, 1)).toMatchObject({
      verdict: 'denied',
      reason: 'denied_by_approver',
      capability: 'repo:write',
      denied_by: denier,
    });
    const entries = (await t.request.get(`/api/v1/executions/${id}`).set(t.admin.auth).expect(200)).body.tool_calls;
    expect(entries[0]).toMatchObject({ seq: 1, verdict: 'denied', reason: 'denied_by_approver', denied_by: denier });
  }, 30_000);

  it('denies an unanswered call at the timeout, and refuses a late approval', async () => {
    const { id, client } = await agent();
    const started = Date.now();
    const call = client.callTool({ name: 'ask__greet', arguments: { who: 'eve' } }) as Promise<CallResult>;
    const held = await heldCall(id);
    const result = await call;
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_900);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^DENIED: approval_timed_out: repo:write: no APPROVER or ADMIN decided it by /);
    expect(await predicate(id, 1)).toMatchObject({ verdict: 'denied', reason: 'approval_timed_out' });
    expect(await predicate(id, 1)).not.toHaveProperty('denied_by');
    const approver = await t.user('APPROVER', 'late@example.com');
    const late = await t.request
      .post(`/api/v1/agent-calls/${held.id as string}/approve`)
      .set(approver.auth)
      .send({});
    expect(late.status).toBe(409);
  }, 30_000);

  it('refuses the held calls of a session that is closed', async () => {
    const { id, client } = await agent();
    const call = client.callTool({ name: 'ask__greet', arguments: { who: 'mallory' } }) as Promise<CallResult>;
    const held = await heldCall(id);
    await t.request.post(`/api/v1/agent-sessions/${id}/close`).set(t.admin.auth).expect(200);
    const result = await call;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/session ended while the call awaited approval/);
    const after = (await t.request.get('/api/v1/agent-calls/pending').set(t.admin.auth).expect(200)).body as { id: string }[];
    expect(after.map((p) => p.id)).not.toContain(held.id);
  }, 30_000);
});

describe('a decision and the end of the session are ordered (docs/mcp-gateway.md, "Asking a person")', () => {
  it('refuses an approval made right after the session is closed (409): the call is not made', async () => {
    const { id, client } = await agent();
    const call = client.callTool({ name: 'ask__greet', arguments: { who: 'closed' } }) as Promise<CallResult>;
    const held = await heldCall(id);
    const approver = await t.user('APPROVER', 'after-close@example.com');
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
    const client = await mcpClient(created.body.mcp_url, { Authorization: `Bearer ${created.body.key}` });
    clients.push(client);
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
