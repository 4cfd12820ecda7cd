import { jsonBodyFacts } from '../../api/middleware/json-body.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import {
  claudePost,
  claudePre,
  decisionOf,
  executionRecord,
  hookPolicy,
  hookSession,
  postHook,
  REPO,
  verifiedExport,
} from './support/hook-fixture.js';

// PostgreSQL stores no NUL in text or jsonb, and no lone UTF-16 surrogate in jsonb. A pre whose tool input held one
// was answered 422 and recorded nothing: the agent's attempt was invisible in its session's record. Such a pre is now
// refused `invalid_arguments` in the agent's own format and recorded, and signed, with U+FFFD in their place, as the
// MCP gateway does (test/mcp/unrecordable-upstream-result.test.ts); a post's response holding one is recorded so too.

let t: TestApp;
let policy: string;
beforeAll(async () => {
  t = await createTestApp();
  policy = await hookPolicy(t);
}, 60_000);
afterAll(async () => t?.close());

type Entry = { seq: number; tool: string; verdict: string; reason: string | null; arguments: unknown; output: string | null };
const entriesOf = async (id: string) => (await executionRecord(t, id)).tool_calls as Entry[];
const UNRECORDABLE = /^shipgate DENIED: invalid_arguments: .*NUL.*surrogate/;

describe('hook input PostgreSQL cannot store as sent (a NUL, a lone surrogate)', () => {
  it("refuses such a pre in each agent's format and records it denied, made storable, its certificate in the session's chain", async () => {
    const session = await hookSession(t, policy);
    const claude = await postHook(t, 'claude-code', session.token, claudePre('Bash', { command: 'echo a\u0000b' })).expect(200);
    expect(decisionOf(claude)).toEqual({ decision: 'deny', reason: expect.stringMatching(UNRECORDABLE) });
    const copilot = { sessionId: 'copilot-1', cwd: REPO, toolName: 'bash' };
    // Copilot's toolArgs as a JSON text: its NUL is an escape inside a string of the body, read by a parse of its own.
    const asText = await postHook(t, 'copilot', session.token, { ...copilot, toolArgs: JSON.stringify({ command: 'echo \u0000' }) });
    expect(asText.body).toEqual({ permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(UNRECORDABLE) });
    const asObject = await postHook(t, 'copilot', session.token, { ...copilot, toolName: 'view', toolArgs: { path: 'a', '\ud800': 1 } });
    expect(asObject.body).toEqual({ permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(UNRECORDABLE) });
    const before = { session_id: 'g-1', cwd: REPO, hook_event_name: 'BeforeTool', tool_name: 'run_shell_command' };
    const gemini = await postHook(t, 'gemini', session.token, { ...before, tool_input: { command: 'ls \udc00' } }).expect(200);
    expect(gemini.body).toEqual({ decision: 'deny', reason: expect.stringMatching(UNRECORDABLE) });
    // A tool name holding one is the call's too; the session goes on.
    await postHook(t, 'claude-code', session.token, claudePre('Bash\u0000', { command: 'ls' })).expect(200);
    const fine = claudePre('Bash', { command: 'echo fine' });
    expect(decisionOf(await postHook(t, 'claude-code', session.token, fine).expect(200)).decision).toBe('allow');
    await postHook(t, 'claude-code', session.token, claudePost(fine, { stdout: 'fine\n' })).expect(200, {});

    const record = await executionRecord(t, session.id);
    expect(record.tool_calls.map((c: Entry) => [c.seq, c.tool, c.verdict, c.reason, c.arguments])).toEqual([
      [1, 'Bash', 'denied', 'invalid_arguments', { command: 'echo a\uFFFDb' }],
      [2, 'bash', 'denied', 'invalid_arguments', { command: 'echo \uFFFD' }],
      [3, 'view', 'denied', 'invalid_arguments', { path: 'a', '\uFFFD': 1 }],
      [4, 'run_shell_command', 'denied', 'invalid_arguments', { command: 'ls \uFFFD' }],
      [5, 'Bash\uFFFD', 'denied', 'invalid_arguments', { command: 'ls' }],
      [6, 'Bash', 'allowed', null, { command: 'echo fine' }],
    ]);
    expect(record.certificates.map((c: { theorem: string }) => c.theorem)).toEqual([...Array(5).fill('action_denied'), 'action_safe']);
    expect(await verifiedExport(t, session.id)).toMatchObject({ code: 0, out: expect.stringMatching(/OK: the package verifies\.$/) });
  });

  it('refuses such a pre of a token this process already served (a call it would open ahead), leaving no open call', async () => {
    const session = await hookSession(t, policy);
    const first = claudePre('Bash', { command: 'ls' });
    await postHook(t, 'claude-code', session.token, first).expect(200);
    await postHook(t, 'claude-code', session.token, claudePost(first, { stdout: '' })).expect(200, {});
    const nul = claudePre('Write', { file_path: `${REPO}/a.txt`, content: 'x\u0000y' });
    expect(decisionOf(await postHook(t, 'claude-code', session.token, nul).expect(200)).reason).toMatch(UNRECORDABLE);
    const record = await executionRecord(t, session.id);
    expect(record.tool_calls.map((c: Entry) => [c.seq, c.verdict, c.arguments])).toEqual([
      [1, 'allowed', { command: 'ls' }],
      [2, 'denied', { file_path: `${REPO}/a.txt`, content: 'x\uFFFDy' }],
    ]);
    expect(record).not.toHaveProperty('incomplete_tool_calls');
  });

  it('finds it in a body over 1 MiB, parsed in a parse thread', async () => {
    const session = await hookSession(t, policy);
    const content = `${'x'.repeat(1_200_000)}\u0000`;
    const large = claudePre('Write', { file_path: `${REPO}/big.txt`, content });
    expect(decisionOf(await postHook(t, 'claude-code', session.token, large).expect(200)).reason).toMatch(UNRECORDABLE);
    const [entry] = await entriesOf(session.id);
    expect([entry.verdict, (entry.arguments as { content: string }).content.endsWith('x\uFFFD')]).toEqual(['denied', true]);
  });

  it("reads Copilot's toolArgs text as a body is read: one a body would refuse is kept as its text (5,000 levels deep was a 500)", async () => {
    const session = await hookSession(t, policy);
    const deep = `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`;
    const huge = '{"command":"ls","n":1e400}';
    for (const toolArgs of [deep, huge]) {
      const res = await postHook(t, 'copilot', session.token, { sessionId: 'c-3', cwd: REPO, toolName: 'bash', toolArgs }).expect(200);
      expect(res.body.permissionDecisionReason).toMatch(/^shipgate DENIED: invalid_arguments: bash needs its command line/);
    }
    expect((await entriesOf(session.id)).map((c) => [c.verdict, c.arguments])).toEqual([
      ['denied', { args: deep }],
      ['denied', { args: huge }],
    ]);
  });

  it("records such a pre of an agent key's run whose own session id holds one, in that run's session", async () => {
    const created = await t.request
      .post('/api/v1/agent-keys')
      .set(t.admin.auth)
      .send({ name: 'nul-run', repo_root: 'acme/shop', compliance_policy: policy, servers: [] })
      .expect(201);
    const run = { session_id: 'run\u0000x' };
    const denied = await postHook(t, 'claude-code', created.body.key, claudePre('Bash', { command: 'ls' }, run)).expect(200);
    expect(decisionOf(denied).reason).toMatch(UNRECORDABLE);
    await postHook(t, 'claude-code', created.body.key, claudePre('Bash', { command: 'pwd' }, run)).expect(200);
    const sessions = (await t.request.get('/api/v1/executions?kind=agent_session&limit=100').set(t.admin.auth).expect(200)).body;
    const mine = ((sessions.items ?? sessions) as { id: string; task: string }[]).filter((e) => e.task === 'nul-run');
    expect(mine).toHaveLength(1);
    expect((await entriesOf(mine[0].id)).map((c) => [c.seq, c.verdict, c.reason])).toEqual([
      [1, 'denied', 'invalid_arguments'],
      [2, 'denied', 'invalid_arguments'],
    ]);
  });

  it('completes the record of a call whose response holds one, keeping the response made storable (the call ran)', async () => {
    const session = await hookSession(t, policy);
    const hook = (body: unknown) => postHook(t, 'claude-code', session.token, body).expect(200);
    const asString = claudePre('mcp__docs__fetch', { url: 'a' });
    const asObject = claudePre('Bash', { command: 'printf "a\\0b"' });
    await hook(asString);
    await hook(asObject);
    await hook(claudePost(asString, 'page\u0000 \ud800 end')).expect({});
    await hook(claudePost(asObject, { stdout: 'a\u0000b', '\udc00': true })).expect({});
    // A post whose own call fields hold one completes no call (its pre was refused): nothing to record, no error.
    await hook(claudePost(claudePre('Bash\u0000', { command: 'ls' }), 'x')).expect({});
    const copilot = { sessionId: 'copilot-2', cwd: REPO, toolName: 'bash', toolArgs: { command: 'cat a' } };
    await postHook(t, 'copilot', session.token, copilot).expect(200);
    const result = { resultType: 'success', textResultForLlm: 'a\u0000' };
    await postHook(t, 'copilot', session.token, { ...copilot, toolResult: result }).expect(200, {});
    const calls = await entriesOf(session.id);
    expect(calls.map((c) => [c.seq, c.tool, c.verdict, c.output])).toEqual([
      [1, 'mcp__docs__fetch', 'allowed', 'page\uFFFD \uFFFD end'],
      [2, 'Bash', 'allowed', '{"stdout":"a\\u0000b","\\udc00":true}'],
      [3, 'bash', 'allowed', '{"resultType":"success","textResultForLlm":"a\\u0000"}'],
    ]);
    expect((await executionRecord(t, session.id)).incomplete_tool_calls).toBeUndefined();
    expect((await verifiedExport(t, session.id)).code).toBe(0);
  });
});

describe("the body's bytes tell the hook endpoint when to look for such text (api/middleware/json-body.ts)", () => {
  const maybe = (text: string) => jsonBodyFacts(Buffer.from(text), JSON.parse(text));
  it('flags an escaped NUL or surrogate in any string, key included, and nothing else', () => {
    for (const text of ['{"a":"x\\u0000"}', '{"\\uD800":1}', '["\\\\\\udfff"]', '["\\ud83d\\ude00"]'])
      expect([text, maybe(text)]).toEqual([text, { maybeUnstorable: true }]);
    for (const text of ['{"a":"\\\\u0000"}', '{"a":"\\u00e9 \\u0001 \\ue000"}', '{"u0000":"d800"}', '["\\u0030\\/"]'])
      expect([text, maybe(text)]).toEqual([text, { maybeUnstorable: false }]);
  });
});
