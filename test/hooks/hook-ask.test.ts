import { createTestApp, type TestApp } from '../support/test-app.js';
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
