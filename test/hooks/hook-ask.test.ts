import { createTestApp, type TestApp } from '../support/test-app.js';
import { MAX_HELD_HOOK_CALLS } from '../../core/mcp/agent-call-approvals.js';
import { claudePost, claudePre, decisionOf, hookPolicy, hookSession, postHook } from './support/hook-fixture.js';

let t: TestApp;
let policy: string;
beforeAll(async () => {
  t = await createTestApp();
  policy = await hookPolicy(t);
}, 60_000);
afterAll(async () => t?.close());

/** The held call of `session`, once approvers see it. */
async function heldCall(session: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 80; i++) {
    const pending = (await t.request.get('/api/v1/agent-calls/pending').set(t.admin.auth).expect(200)).body as Record<string, unknown>[];
    const mine = pending.find((p) => p.execution_id === session);
    if (mine) return mine;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the call was never held');
}

const workflowWrite = () => claudePre('Write', { file_path: '/work/acme-shop/.github/workflows/ci.yml', content: 'on: push' });

describe('a tool rule with verdict ask', () => {
  it('holds the hook request until an independent APPROVER approves; the call then runs and its record names the approver', async () => {
    const session = await hookSession(t, policy);
    const pre = workflowWrite();
    const answer = postHook(t, 'claude-code', session.token, pre).then((res) => res);
    const held = await heldCall(session.id);
    expect(held).toMatchObject({ tool: 'Write', capability: 'fs:write:.github/workflows/ci.yml', arguments: pre.tool_input });
    const approver = await t.user('APPROVER', `approver-${Date.now()}@example.com`);
    await t.request
      .post(`/api/v1/agent-calls/${held.id as string}/approve`)
      .set(approver.auth)
      .send({})
      .expect(200);
    const res = await answer;
    expect(decisionOf(res)).toEqual({ decision: 'allow', reason: expect.stringMatching(/approved by/) });
    await postHook(t, 'claude-code', session.token, claudePost(pre, { type: 'create' })).expect(200);
    const execution = (await t.request.get(`/api/v1/executions/${session.id}`).set(t.admin.auth).expect(200)).body;
    expect(execution.tool_calls).toEqual([
      expect.objectContaining({ tool: 'Write', verdict: 'allowed', approved_by: { id: approver.id, name: expect.any(String) } }),
    ]);
    const statement = JSON.parse(Buffer.from(execution.certificates[0].envelope.payload, 'base64').toString('utf8'));
    expect(statement.predicate.approved_by).toMatchObject({ id: approver.id });
  });

  it('denies at the timeout when nobody decides, never answering ask', async () => {
    const quick = await hookPolicy(t, { ask_timeout_seconds: 5 });
    const session = await hookSession(t, quick);
    const started = Date.now();
    const res = await postHook(t, 'claude-code', session.token, workflowWrite()).expect(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_500);
    expect(decisionOf(res)).toEqual({ decision: 'deny', reason: expect.stringMatching(/approval_timed_out/) });
    const execution = (await t.request.get(`/api/v1/executions/${session.id}`).set(t.admin.auth).expect(200)).body;
    expect(execution.tool_calls).toEqual([expect.objectContaining({ tool: 'Write', verdict: 'denied', reason: 'approval_timed_out' })]);
    expect(execution.tool_calls[0]).not.toHaveProperty('denied_by');
  }, 20_000);

  it('denies when an APPROVER denies, with their reason', async () => {
    const session = await hookSession(t, policy);
    const answer = postHook(t, 'claude-code', session.token, workflowWrite()).then((res) => res);
    const held = await heldCall(session.id);
    const approver = await t.user('APPROVER', `denier-${Date.now()}@example.com`);
    await t.request
      .post(`/api/v1/agent-calls/${held.id as string}/deny`)
      .set(approver.auth)
      .send({ reason: 'not on a Friday' })
      .expect(200);
    expect(decisionOf(await answer)).toEqual({ decision: 'deny', reason: expect.stringMatching(/denied_by_approver.*not on a Friday/) });
    const execution = (await t.request.get(`/api/v1/executions/${session.id}`).set(t.admin.auth).expect(200)).body;
    const denier = { id: approver.id, name: expect.any(String), reason: 'not on a Friday' };
    expect(execution.tool_calls).toEqual([expect.objectContaining({ verdict: 'denied', reason: 'denied_by_approver', denied_by: denier })]);
    const statement = JSON.parse(Buffer.from(execution.certificates[0].envelope.payload, 'base64').toString('utf8'));
    expect(statement.predicate).toMatchObject({ theorem: 'action_denied', denied_by: denier });
  });
});

describe('held hook calls end with their session, and are bounded', () => {
  it('answers deny, not allow, when an approval comes right after the session is closed (the approval is 409)', async () => {
    const session = await hookSession(t, policy);
    const answer = postHook(t, 'claude-code', session.token, workflowWrite()).then((res) => res);
    const held = await heldCall(session.id);
    const approver = await t.user('APPROVER', `after-close-${Date.now()}@example.com`);
    await t.request.post(`/api/v1/agent-sessions/${session.id}/close`).set(t.admin.auth).expect(200);
    await t.request
      .post(`/api/v1/agent-calls/${held.id as string}/approve`)
      .set(approver.auth)
      .send({})
      .expect(409);
    expect(decisionOf(await answer)).toEqual({ decision: 'deny', reason: expect.stringMatching(/session has ended/) });
  });

  it(`holds at most ${MAX_HELD_HOOK_CALLS} calls of a session at once: one more is denied at once, naming the limit, and recorded`, async () => {
    const session = await hookSession(t, policy);
    const writes = Array.from({ length: MAX_HELD_HOOK_CALLS }, () =>
      postHook(t, 'claude-code', session.token, workflowWrite()).then((res) => res),
    );
    for (let i = 0; i < 80; i++) {
      const pending = (await t.request.get('/api/v1/agent-calls/pending?limit=100').set(t.admin.auth).expect(200)).body as {
        execution_id: string;
      }[];
      if (pending.filter((p) => p.execution_id === session.id).length === MAX_HELD_HOOK_CALLS) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const started = Date.now();
    const extra = await postHook(t, 'claude-code', session.token, workflowWrite()).expect(200);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(decisionOf(extra)).toEqual({
      decision: 'deny',
      reason: expect.stringMatching(
        new RegExp(`tool_call_limit: .*${MAX_HELD_HOOK_CALLS} calls awaiting approval.*\\(${MAX_HELD_HOOK_CALLS}\\)`),
      ),
    });
    const execution = (await t.request.get(`/api/v1/executions/${session.id}`).set(t.admin.auth).expect(200)).body;
    expect(execution.tool_calls).toEqual([expect.objectContaining({ tool: 'Write', verdict: 'denied', reason: 'tool_call_limit' })]);
    await t.request.post(`/api/v1/agent-sessions/${session.id}/close`).set(t.admin.auth).expect(200);
    for (const write of writes) expect(decisionOf(await write).decision).toBe('deny');
  }, 30_000);

  it('counts held calls towards max_tool_calls', async () => {
    const res = await t.request
      .post('/api/v1/agent-sessions')
      .set(t.admin.auth)
      .send({ name: 'claude run', repo_root: 'acme/shop', servers: [], compliance_policy: policy, max_tool_calls: 2 });
    expect(res.status).toBe(201);
    const session = { id: res.body.id as string, token: res.body.token as string };
    const writes = [0, 1].map(() => postHook(t, 'claude-code', session.token, workflowWrite()).then((r) => r));
    for (let i = 0; i < 80; i++) {
      const pending = (await t.request.get('/api/v1/agent-calls/pending?limit=100').set(t.admin.auth).expect(200)).body as {
        execution_id: string;
      }[];
      if (pending.filter((p) => p.execution_id === session.id).length === 2) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const extra = await postHook(t, 'claude-code', session.token, workflowWrite()).expect(200);
    expect(decisionOf(extra)).toEqual({ decision: 'deny', reason: expect.stringMatching(/tool_call_limit: .*max_tool_calls \(2\)/) });
    await t.request.post(`/api/v1/agent-sessions/${session.id}/close`).set(t.admin.auth).expect(200);
    for (const write of writes) expect(decisionOf(await write).decision).toBe('deny');
  }, 30_000);
});
