import type { TestApp } from '../support/test-app.js';
import { useAskingGateway, textOf, type CallResult } from './support/asking-gateway.js';

const gateway = useAskingGateway();
const { agent, heldCall, predicate } = gateway;
let t: TestApp;
beforeAll(() => {
  t = gateway.t;
});

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
