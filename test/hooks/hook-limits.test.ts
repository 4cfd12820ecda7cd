import { createTestApp, type TestApp } from '../support/test-app.js';
import { claudePost, claudePre, executionRecord, hookPolicy, hookSession, postHook, REPO } from './support/hook-fixture.js';

let t: TestApp;
let policy: string;
beforeAll(async () => {
  t = await createTestApp({ SHIPGATE_MCP_RATE_LIMIT_PER_MINUTE: '3', SHIPGATE_MCP_MAX_SESSIONS: '1' });
  policy = await hookPolicy(t);
}, 60_000);
afterAll(async () => t?.close());

describe('the hook endpoint\'s limits (docs/agent-hooks.md, "The endpoint")', () => {
  it('answers 429 with Retry-After past the per-token rate; another token is counted apart', async () => {
    const session = await hookSession(t, policy);
    for (let i = 0; i < 3; i++) await postHook(t, 'claude-code', session.token, claudePre('Bash', { command: 'ls' })).expect(200);
    const limited = await postHook(t, 'claude-code', session.token, claudePre('Bash', { command: 'ls' }));
    expect([limited.status, limited.body.detail]).toEqual([429, expect.stringMatching(/slow down/)]);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const other = await hookSession(t, policy);
    await postHook(t, 'claude-code', other.token, claudePre('Bash', { command: 'ls' })).expect(200);
  });

  it('does not count a post completing a call its pre was counted for; any other post is counted', async () => {
    const session = await hookSession(t, policy);
    for (let i = 0; i < 3; i++) {
      const pre = claudePre('Bash', { command: `echo ${i}` });
      await postHook(t, 'claude-code', session.token, pre).expect(200);
      await postHook(t, 'claude-code', session.token, claudePost(pre, { stdout: `${i}\n` })).expect(200, {});
    }
    const calls = (await executionRecord(t, session.id)).tool_calls;
    expect(calls.map((c: { seq: number; verdict: string }) => [c.seq, c.verdict])).toEqual([
      [1, 'allowed'],
      [2, 'allowed'],
      [3, 'allowed'],
    ]);
    const stray = claudePost(claudePre('Bash', { command: 'ls' }), { stdout: '' });
    expect((await postHook(t, 'claude-code', session.token, stray)).status).toBe(429);
  });

  it("refuses an agent key's run (429) while the key has its cap of sessions open", async () => {
    const created = await t.request
      .post('/api/v1/agent-keys')
      .set(t.admin.auth)
      .send({ name: 'capped', repo_root: 'acme/shop', compliance_policy: policy, servers: [] })
      .expect(201);
    const key = created.body.key as string;
    await postHook(t, 'gemini', key, {
      session_id: 'run-1',
      cwd: REPO,
      hook_event_name: 'BeforeTool',
      tool_name: 'read_file',
      tool_input: { file_path: 'a' },
    }).expect(200);
    const second = await postHook(t, 'gemini', key, {
      session_id: 'run-2',
      cwd: REPO,
      hook_event_name: 'BeforeTool',
      tool_name: 'read_file',
      tool_input: { file_path: 'a' },
    });
    expect(second.status).toBe(429);
  });

  it("counts an agent key's requests against its own rate too (429 past it)", async () => {
    const created = await t.request
      .post('/api/v1/agent-keys')
      .set(t.admin.auth)
      .send({ name: 'counted', repo_root: 'acme/shop', compliance_policy: policy, servers: [] })
      .expect(201);
    const stop = { session_id: 'run-counted', cwd: REPO, hook_event_name: 'Stop' };
    for (let i = 0; i < 3; i++) await postHook(t, 'claude-code', created.body.key as string, stop).expect(200);
    const limited = await postHook(t, 'claude-code', created.body.key as string, stop);
    expect([limited.status, limited.body.detail]).toEqual([429, expect.stringMatching(/slow down/)]);
  });
});
