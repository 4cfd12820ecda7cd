import { createTestApp, type TestApp } from '../support/test-app.js';
import { claudePre, executionRecord, hookPolicy, hookSession, postHook, REPO } from './support/hook-fixture.js';

let t: TestApp;
let policy: string;
beforeAll(async () => {
  t = await createTestApp();
  policy = await hookPolicy(t);
}, 60_000);
afterAll(async () => t?.close());

const record = (id: string) => executionRecord(t, id);

describe('Copilot CLI and Gemini CLI hooks, and agent keys', () => {
  it("answers Copilot's camelCase preToolUse in its format, completes the call on postToolUse, and answers a Claude-format body in Claude's", async () => {
    const session = await hookSession(t, policy);
    const pre = {
      sessionId: 'copilot-1',
      timestamp: Date.now(),
      cwd: REPO,
      toolName: 'bash',
      toolArgs: JSON.stringify({ command: 'echo hi' }),
    };
    const allowed = await postHook(t, 'copilot', session.token, pre).expect(200);
    expect(allowed.body).toEqual({ permissionDecision: 'allow', permissionDecisionReason: expect.any(String) });
    await postHook(t, 'copilot', session.token, { ...pre, toolResult: { resultType: 'success', textResultForLlm: 'hi' } }).expect(200, {});
    const denied = await postHook(t, 'copilot', session.token, { ...pre, toolName: 'view', toolArgs: { path: `${REPO}/.env.production` } });
    expect(denied.body).toEqual({
      permissionDecision: 'deny',
      permissionDecisionReason: expect.stringMatching(/tool_rule:1: fs:read:.env.production/),
    });
    const claudeShaped = await postHook(t, 'copilot', session.token, claudePre('Bash', { command: 'git push --force' }));
    expect(claudeShaped.body.hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' });
    expect((await record(session.id)).tool_calls.map((c: Record<string, unknown>) => [c.tool, c.verdict])).toEqual([
      ['bash', 'allowed'],
      ['view', 'denied'],
      ['Bash', 'denied'],
    ]);
    expect((await postHook(t, 'copilot', session.token, { toolName: 5 })).status).toBe(422);
    expect((await postHook(t, 'copilot', session.token, { sessionId: 'copilot-1', cwd: REPO })).body).toEqual({});
  });

  it("answers Gemini CLI's BeforeTool with decision allow or deny and a reason", async () => {
    const session = await hookSession(t, policy);
    const before = (tool: string, input: Record<string, unknown>) => ({
      session_id: 'g-1',
      cwd: REPO,
      hook_event_name: 'BeforeTool',
      tool_name: tool,
      tool_input: input,
    });
    expect((await postHook(t, 'gemini', session.token, before('run_shell_command', { command: 'ls' }))).body).toEqual({
      decision: 'allow',
    });
    const denied = await postHook(t, 'gemini', session.token, before('write_file', { file_path: '.github/workflows/x.yml', content: '' }));
    // The ask rule holds it; with nobody to decide, the timeout (5 s) denies it.
    expect(denied.body).toEqual({ decision: 'deny', reason: expect.stringMatching(/approval_timed_out/) });
    const after = { ...before('run_shell_command', { command: 'ls' }), hook_event_name: 'AfterTool', tool_response: { llmContent: 'a' } };
    await postHook(t, 'gemini', session.token, after).expect(200, {});
    expect((await postHook(t, 'gemini', session.token, { ...before('read_file', {}), tool_input: [] })).status).toBe(422);
  }, 20_000);

  it("decides Gemini CLI's MCP tools as mcp:<server>/<tool>, by the server and tool name its mcp_context reports", async () => {
    const session = await hookSession(t, await hookPolicy(t, { ceiling: ['shell:exec', 'mcp:github/*'] }));
    const mcpCall = (server: string) => ({
      session_id: 'g-mcp',
      cwd: REPO,
      hook_event_name: 'BeforeTool',
      tool_name: `mcp_${server}_create_issue`,
      tool_input: { title: 'flaky test' },
      mcp_context: { server_name: server, tool_name: 'create_issue', url: 'http://127.0.0.1:9/mcp' },
    });
    expect((await postHook(t, 'gemini', session.token, mcpCall('github'))).body).toEqual({ decision: 'allow' });
    const denied = await postHook(t, 'gemini', session.token, mcpCall('jira'));
    expect(denied.body).toEqual({ decision: 'deny', reason: expect.stringMatching(/capability_not_granted: mcp:jira\/create_issue/) });
  });

  it("with an agent key, the agent's own session id opens one session at its first call and continues it; another run opens another", async () => {
    const created = await t.request
      .post('/api/v1/agent-keys')
      .set(t.admin.auth)
      .send({ name: 'claude-in-ci', repo_root: 'acme/shop', compliance_policy: policy, servers: [] })
      .expect(201);
    const key = created.body.key as string;
    const run = (id: string, command: string) => postHook(t, 'claude-code', key, claudePre('Bash', { command }, { session_id: id }));
    await run('run-a', 'ls').expect(200);
    await run('run-a', 'git push --force').expect(200);
    await run('run-b', 'git push --force').expect(200);
    const sessions = (await t.request.get('/api/v1/executions?kind=agent_session&limit=100').set(t.admin.auth).expect(200)).body;
    const list = (sessions.items ?? sessions) as { id: string; task: string }[];
    const mine = list.filter((e) => e.task === 'claude-in-ci');
    expect(mine).toHaveLength(2);
    const denials = await Promise.all(mine.map(async (e) => (await record(e.id)).tool_calls.length));
    expect(denials.sort()).toEqual([1, 1]);
    const other = await postHook(t, 'claude-code', key, { session_id: 'run-c', cwd: REPO, hook_event_name: 'Stop' });
    expect(other.body).toEqual({});
    expect((await postHook(t, 'claude-code', 'sg_nobody', claudePre('Bash', { command: 'ls' }))).status).toBe(401);
  });

  it("are described in /openapi.json: each agent's input and answer, and the errors", async () => {
    const doc = (await t.request.get('/openapi.json').expect(200)).body;
    for (const agent of ['claude-code', 'copilot', 'gemini']) {
      const post = doc.paths[`/api/v1/hooks/${agent}`].post;
      expect(Object.keys(post.responses).sort()).toEqual(['200', '400', '401', '404', '413', '422', '429', '500', '503']);
      expect(post.requestBody.content['application/json'].schema).toBeDefined();
    }
    expect(doc.components.schemas).toHaveProperty('ClaudeCodePreToolUse');
    expect(doc.components.schemas).toHaveProperty('CopilotToolEvent');
    expect(doc.components.schemas).toHaveProperty('GeminiBeforeTool');
  });
});
