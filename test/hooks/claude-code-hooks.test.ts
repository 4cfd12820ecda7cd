import { createTestApp, type TestApp } from '../support/test-app.js';
import { claudePost, claudePre, decisionOf, executionRecord, hookPolicy, hookSession, postHook } from './support/hook-fixture.js';

let t: TestApp;
let policy: string;
beforeAll(async () => {
  t = await createTestApp();
  policy = await hookPolicy(t);
}, 60_000);
afterAll(async () => t?.close());

const record = (id: string) => executionRecord(t, id);

describe('POST /api/v1/hooks/claude-code', () => {
  it('allows a shell command, records it with its response digest and an action_safe certificate once its post comes', async () => {
    const session = await hookSession(t, policy);
    const pre = claudePre('Bash', { command: 'echo hello > out.txt' });
    const allowed = await postHook(t, 'claude-code', session.token, pre).expect(200);
    expect(decisionOf(allowed)).toEqual({ decision: 'allow', reason: expect.stringMatching(/allowed/) });
    expect((await record(session.id)).tool_calls).toEqual([]);

    const post = await postHook(t, 'claude-code', session.token, claudePost(pre, { stdout: '', stderr: '', interrupted: false }, 7));
    expect([post.status, post.body]).toEqual([200, {}]);
    const execution = await record(session.id);
    expect(execution.tool_calls).toEqual([
      expect.objectContaining({
        seq: 1,
        call_id: pre.tool_use_id,
        tool: 'Bash',
        arguments: { command: 'echo hello > out.txt' },
        capability: 'shell:exec',
        verdict: 'allowed',
        result_digest: expect.stringMatching(/^[0-9a-f]{64}$/),
        duration_ms: 7,
      }),
    ]);
    expect(execution.certificates.map((c: { theorem: string }) => c.theorem)).toEqual(['action_safe']);
  });

  it("denies a read of .env (a tool_rules deny), in Claude's format, recorded denied with an action_denied certificate", async () => {
    const session = await hookSession(t, policy);
    const res = await postHook(t, 'claude-code', session.token, claudePre('Read', { file_path: '/work/acme-shop/.env' })).expect(200);
    expect(res.body).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'shipgate DENIED: tool_rule:1: fs:read:.env: tool_rules[1] matches Read .env',
      },
    });
    const execution = await record(session.id);
    expect(execution.tool_calls).toEqual([
      expect.objectContaining({
        seq: 1,
        tool: 'Read',
        verdict: 'denied',
        reason: 'tool_rule:1',
        capability: 'fs:read:.env',
        result_digest: null,
      }),
    ]);
    expect(execution.certificates.map((c: { theorem: string }) => c.theorem)).toEqual(['action_denied']);
  });

  it('checks a shell command that plainly reads a file against the read globs, and a forced push against the command globs', async () => {
    const session = await hookSession(t, policy);
    const cat = await postHook(t, 'claude-code', session.token, claudePre('Bash', { command: 'cat config/.env.local | head -3' }));
    expect(decisionOf(cat)).toMatchObject({ decision: 'deny', reason: expect.stringMatching(/tool_rule:1/) });
    const push = await postHook(t, 'claude-code', session.token, claudePre('Bash', { command: 'cd app && git push --force origin main' }));
    expect(decisionOf(push)).toMatchObject({ decision: 'deny', reason: expect.stringMatching(/tool_rule:0.*git push --force/) });
    const plain = await postHook(t, 'claude-code', session.token, claudePre('Bash', { command: 'git push origin main' }));
    expect(decisionOf(plain).decision).toBe('allow');
  });

  it("allows a Write outside the asked paths, and records a sub-agent's calls with its agent_id, in order", async () => {
    const session = await hookSession(t, policy);
    const write = claudePre('Write', { file_path: '/work/acme-shop/src/app.ts', content: 'export {};' });
    expect(decisionOf(await postHook(t, 'claude-code', session.token, write)).decision).toBe('allow');
    await postHook(t, 'claude-code', session.token, claudePost(write, { type: 'create', filePath: '/work/acme-shop/src/app.ts' })).expect(
      200,
    );
    const sub = claudePre('Read', { file_path: 'src/app.ts' }, { agent_id: 'agent-7', agent_type: 'Explore' });
    expect(decisionOf(await postHook(t, 'claude-code', session.token, sub)).decision).toBe('allow');
    await postHook(t, 'claude-code', session.token, claudePost(sub, { type: 'text', file: { content: 'export {};' } })).expect(200);
    const calls = (await record(session.id)).tool_calls as Record<string, unknown>[];
    expect(calls.map((c) => [c.seq, c.tool, c.capability, c.verdict, c.agent_id])).toEqual([
      [1, 'Write', 'fs:write:src/app.ts', 'allowed', undefined],
      [2, 'Read', 'fs:read:src/app.ts', 'allowed', 'agent-7'],
    ]);
  });

  it('refuses a call whose input is not what its tool runs (a command line that is no string, a file tool naming no file or a path past PATH_MAX), recorded denied', async () => {
    const session = await hookSession(t, policy);
    const inputs: [string, Record<string, unknown>][] = [
      ['Bash', { command: ['cat', '.env'] }],
      ['Bash', { command: 1 }],
      ['Read', {}],
      ['Read', { file_path: 123 }],
      ['Write', { file_path: '', content: 'x' }],
      ['Read', { file_path: `/work/acme-shop/${'a/'.repeat(2_100)}x` }],
    ];
    for (const [tool, input] of inputs) {
      const answer = decisionOf(await postHook(t, 'claude-code', session.token, claudePre(tool, input)).expect(200));
      expect([tool, input, answer.decision, answer.reason]).toEqual([
        tool,
        input,
        'deny',
        expect.stringMatching(/^shipgate DENIED: invalid_arguments: /),
      ]);
    }
    const calls = (await record(session.id)).tool_calls as { verdict: string; reason: string }[];
    expect(calls.map((c) => [c.verdict, c.reason])).toEqual(inputs.map(() => ['denied', 'invalid_arguments']));
  });

  it('answers 401 without a token, 400 for a body that is not JSON, 422 for JSON that is no hook input or a misnamed tool event, {} for other events', async () => {
    const session = await hookSession(t, policy);
    const anonymous = await t.request.post('/api/v1/hooks/claude-code').send(claudePre('Bash', { command: 'ls' }));
    expect([anonymous.status, anonymous.body.detail]).toEqual([401, expect.stringMatching(/token/)]);
    const broken = await t.request
      .post('/api/v1/hooks/claude-code')
      .set('Authorization', `Bearer ${session.token}`)
      .set('Content-Type', 'application/json')
      .send('{"hook_event_name": ');
    expect([broken.status, broken.body]).toEqual([400, { detail: 'Malformed JSON body.' }]);
    const wrong = await postHook(t, 'claude-code', session.token, { hello: 'world' });
    expect([wrong.status, typeof wrong.body.detail]).toEqual([422, 'string']);
    const partial = await postHook(t, 'claude-code', session.token, { ...claudePre('Bash', {}), tool_input: 'ls' });
    expect([partial.status, partial.body.detail]).toEqual([422, expect.stringMatching(/tool_input/)]);
    const other = await postHook(t, 'claude-code', session.token, { session_id: 'x', cwd: '/', hook_event_name: 'SessionStart' });
    expect([other.status, other.body]).toEqual([200, {}]);
    // A tool event in another case or of another agent would run its tool ungoverned if answered {}.
    for (const [agent, name] of [
      ['claude-code', 'preToolUse'],
      ['claude-code', 'BeforeTool'],
      ['gemini', 'PreToolUse'],
      ['copilot', 'pretooluse'],
    ]) {
      const misnamed = await postHook(t, agent, session.token, { ...claudePre('Bash', { command: 'ls' }), hook_event_name: name });
      expect([misnamed.status, misnamed.body.detail]).toEqual([422, expect.stringContaining(`"${name}" is no tool event of this agent`)]);
    }
    // A body refused for its shape (nested too deep, a number past the double range; below) is a ValidationError, as
    // /openapi.json declares beside the string detail. A call holding a NUL is no 422: unrecordable-hook-input.test.ts.
    const declared = (await t.request.get('/openapi.json').expect(200)).body.paths['/api/v1/hooks/claude-code'].post.responses[422];
    expect(JSON.stringify(declared)).toContain('ValidationError');
  });

  it('answers 422 for a hook input nested 5,000 levels deep (it was a 500), and 100 levels still pass', async () => {
    const session = await hookSession(t, policy);
    const nested = (depth: number) => `${'['.repeat(depth)}"]"${']'.repeat(depth)}`;
    const body = (depth: number) =>
      `{"session_id":"s1","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls","x":${nested(depth)}}}`;
    const send = (agent: string, text: string) =>
      t.request
        .post(`/api/v1/hooks/${agent}`)
        .set('Authorization', `Bearer ${session.token}`)
        .set('Content-Type', 'application/json')
        .send(text);
    const refused = { detail: [expect.objectContaining({ loc: ['body'], msg: expect.stringMatching(/deeper than 100 levels/) })] };
    for (const agent of ['claude-code', 'copilot', 'gemini']) {
      const deep = await send(agent, body(5_000));
      expect([agent, deep.status, deep.body]).toEqual([agent, 422, refused]);
    }
    // Over 1 MiB, a body is parsed in a parse thread: refused there alike.
    const large = await send('claude-code', body(5_000).replace('"ls"', `"${'l'.repeat(1_200_000)}"`));
    expect([large.status, large.body]).toEqual([422, refused]);
    const fine = await send('claude-code', body(98));
    expect(decisionOf(fine).decision).toBe('allow');
  });

  it('answers 422 for a number past the double range (1e400 was a 500 in a post), on the event loop and in a parse thread; the call stays open', async () => {
    const session = await hookSession(t, policy);
    const pre = claudePre('Bash', { command: 'ls' });
    expect(decisionOf(await postHook(t, 'claude-code', session.token, pre)).decision).toBe('allow');
    const send = (text: string) =>
      t.request
        .post('/api/v1/hooks/claude-code')
        .set('Authorization', `Bearer ${session.token}`)
        .set('Content-Type', 'application/json')
        .send(text);
    const post = (response: string) => JSON.stringify(claudePost(pre, 'R')).replace('"tool_response":"R"', `"tool_response":${response}`);
    const refused = { detail: [expect.objectContaining({ loc: ['body'], type: 'number_out_of_range' })] };
    for (const response of ['{"n":1e400}', '[-1E+999]', `{"big":${'9'.repeat(400)}}`, `{"pad":"${'x'.repeat(1_200_000)}","n":1e400}`]) {
      const res = await send(post(response));
      expect([response.slice(0, 20), res.status, res.body]).toEqual([response.slice(0, 20), 422, refused]);
    }
    // Exponents and long numbers that are doubles still pass, and "1e400" in a string is text.
    const fine = await send(post(`{"n":1e308,"m":-2.5E-3,"s":"1e400","d":${'9'.repeat(300)}}`));
    expect(fine.status).toBe(200);
    expect((await record(session.id)).tool_calls).toEqual([expect.objectContaining({ call_id: pre.tool_use_id, verdict: 'allowed' })]);
  });
});
