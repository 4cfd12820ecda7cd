import { jest } from '@jest/globals';
import { createTestApp, type TestApp } from '../support/test-app.js';
import {
  claudePost,
  claudePre,
  decisionOf,
  executionRecord,
  hookPolicy,
  hookSession,
  postHook,
  verifiedExport,
} from './support/hook-fixture.js';

let t: TestApp;
let policy: string;
beforeAll(async () => {
  t = await createTestApp();
  policy = await hookPolicy(t);
}, 60_000);
afterAll(async () => t?.close());

const record = (id: string) => executionRecord(t, id);
const verifyExport = (id: string) => verifiedExport(t, id);

describe('the execution record of a coding agent governed through its hooks', () => {
  it("lists every call in order with its verdict (a sub-agent's with its agent_id), shows a pre without a post as incomplete, and its export verifies", async () => {
    const session = await hookSession(t, policy);
    const hook = (body: unknown) => postHook(t, 'claude-code', session.token, body).expect(200);
    const bash = claudePre('Bash', { command: 'echo hello > out.txt' });
    await hook(bash);
    await hook(claudePost(bash, { stdout: '', stderr: '', interrupted: false }));
    expect(decisionOf(await hook(claudePre('Bash', { command: 'cat .env' }))).decision).toBe('deny');
    const task = claudePre('Task', { description: 'explore', prompt: 'look around', subagent_type: 'Explore' });
    expect(decisionOf(await hook(task)).decision).toBe('allow');
    const subRead = claudePre('Read', { file_path: '/work/acme-shop/README.md' }, { agent_id: 'sub-1', agent_type: 'Explore' });
    await hook(subRead);
    await hook(
      claudePost(subRead, { type: 'text', file: { filePath: 'README.md', content: 'token ghp_abcdefghijklmnopqrstuvwxyz0123456789' } }),
    );
    await hook(claudePost(task, { content: [{ type: 'text', text: 'done' }] }));
    // The agent crashed while this write ran: its post never comes.
    const crashed = claudePre('Edit', { file_path: '/work/acme-shop/src/a.ts', old_string: 'a', new_string: 'b' });
    await hook(crashed);

    const open = await record(session.id);
    expect(open.tool_calls.map((c: Record<string, unknown>) => [c.seq, c.tool, c.verdict, c.reason, c.agent_id])).toEqual([
      [1, 'Bash', 'allowed', null, undefined],
      [2, 'Bash', 'denied', 'tool_rule:1', undefined],
      [3, 'Read', 'allowed', null, 'sub-1'],
      [4, 'Task', 'allowed', null, undefined],
    ]);
    // The response is redacted by the policy's output rules before it is digested and kept.
    expect(open.tool_calls[2].output).not.toMatch(/ghp_/);
    expect(open.incomplete_tool_calls).toEqual([
      {
        call_id: crashed.tool_use_id,
        tool: 'Edit',
        arguments: crashed.tool_input,
        capability: 'fs:write:src/a.ts',
        agent_id: null,
        requested_at: expect.any(String),
        completed: false,
      },
    ]);
    expect(open.certificates.map((c: { theorem: string }) => c.theorem)).toEqual([
      'action_safe',
      'action_denied',
      'action_safe',
      'action_safe',
    ]);

    await t.request.post(`/api/v1/agent-sessions/${session.id}/close`).set(t.admin.auth).expect(200);
    const closed = await record(session.id);
    expect(closed.incomplete_tool_calls).toHaveLength(1);
    const verified = await verifyExport(session.id);
    expect(verified).toMatchObject({ code: 0, out: expect.stringMatching(/OK: the package verifies\.$/) });
  });

  it('a post after its session closed records nothing, on the process that allowed its call too', async () => {
    const session = await hookSession(t, policy);
    const done = claudePre('Bash', { command: 'echo done' });
    const late = claudePre('Bash', { command: 'echo late' });
    await postHook(t, 'claude-code', session.token, done).expect(200);
    await postHook(t, 'claude-code', session.token, claudePost(done, { stdout: 'done' })).expect(200);
    await postHook(t, 'claude-code', session.token, late).expect(200);
    await t.request.post(`/api/v1/agent-sessions/${session.id}/close`).set(t.admin.auth).expect(200);
    const after = await postHook(t, 'claude-code', session.token, claudePost(late, { stdout: 'late' }));
    expect(after.status).toBe(200);
    const closed = await record(session.id);
    expect(closed.tool_calls.map((c: { seq: number; call_id: string }) => [c.seq, c.call_id])).toEqual([[1, done.tool_use_id]]);
    expect(closed.incomplete_tool_calls.map((c: { call_id: string }) => c.call_id)).toEqual([late.tool_use_id]);
    expect((await verifyExport(session.id)).code).toBe(0);
  });

  it("sends one statement per hook once the token is known: a pre opens its call with the credential's, a post writes only its entry", async () => {
    const session = await hookSession(t, policy);
    const first = claudePre('Bash', { command: 'echo first' });
    await postHook(t, 'claude-code', session.token, first).expect(200);
    await postHook(t, 'claude-code', session.token, claudePost(first, { stdout: 'first' })).expect(200);
    const store = t.deps.hookCalls;
    const reads = jest.spyOn(store, 'sessionByTokenCounted');
    const opens = jest.spyOn(store, 'open');
    try {
      const pres = [1, 2, 3].map((i) => claudePre('Bash', { command: `echo ${i}` }));
      for (const pre of pres) {
        expect(decisionOf(await postHook(t, 'claude-code', session.token, pre).expect(200)).decision).toBe('allow');
        await postHook(t, 'claude-code', session.token, claudePost(pre, { stdout: 'ok' })).expect(200, {});
      }
      const denied = claudePre('Bash', { command: 'git push --force origin main' });
      expect(decisionOf(await postHook(t, 'claude-code', session.token, denied).expect(200)).decision).toBe('deny');
      expect(reads.mock.calls.map((c) => c[3]?.call.call_id ?? null)).toEqual([...pres.map((p) => p.tool_use_id), null]);
      expect(opens).not.toHaveBeenCalled();
    } finally {
      reads.mockRestore();
      opens.mockRestore();
    }
    const done = await record(session.id);
    expect(done.tool_calls.map((c: { seq: number; verdict: string }) => [c.seq, c.verdict])).toEqual([
      [1, 'allowed'],
      [2, 'allowed'],
      [3, 'allowed'],
      [4, 'allowed'],
      [5, 'denied'],
    ]);
    expect(done).not.toHaveProperty('incomplete_tool_calls');
    expect((await verifyExport(session.id)).code).toBe(0);
  });

  it('a post whose pre never came records nothing; a post completes its own pre by tool_use_id, whatever came between', async () => {
    const session = await hookSession(t, policy);
    const stray = claudePre('Bash', { command: 'ls' });
    await postHook(t, 'claude-code', session.token, claudePost(stray, { stdout: 'a' })).expect(200, {});
    const first = claudePre('Bash', { command: 'sleep 1' });
    const second = claudePre('Bash', { command: 'ls src' });
    await postHook(t, 'claude-code', session.token, first).expect(200);
    await postHook(t, 'claude-code', session.token, second).expect(200);
    await postHook(t, 'claude-code', session.token, claudePost(second, { stdout: 'a.ts' })).expect(200);
    await postHook(t, 'claude-code', session.token, claudePost(first, { stdout: '' })).expect(200);
    const calls = (await record(session.id)).tool_calls as Record<string, unknown>[];
    expect(calls.map((c) => [c.seq, c.call_id, (c.arguments as { command: string }).command])).toEqual([
      [1, second.tool_use_id, 'ls src'],
      [2, first.tool_use_id, 'sleep 1'],
    ]);
    expect((await verifyExport(session.id)).code).toBe(0);
  });
});
