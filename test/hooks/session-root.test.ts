import { createTestApp, type TestApp } from '../support/test-app.js';
import { claudePre, decisionOf, hookPolicy, hookSession, postHook, REPO } from './support/hook-fixture.js';

// docs/agent-hooks.md, "Paths": a hook input's `cwd` is the agent's current directory. Read as the repository root, a
// `cd .github` first let `workflows/x.yml` past `write: .github/workflows/**`, and `cd secrets` a read of `a.txt`.

let t: TestApp;
let policy: string;
beforeAll(async () => {
  t = await createTestApp();
  policy = await hookPolicy(t, {
    tool_rules: [
      { match: { write: '.github/workflows/**' }, verdict: 'deny' },
      { match: { read: 'secrets/**' }, verdict: 'deny' },
    ],
    ask_timeout_seconds: undefined,
  });
}, 60_000);
afterAll(async () => t?.close());

describe("a session's repository root", () => {
  it("is its first call's cwd: a call from a directory the agent moved to is read relative to it, whichever replica sets it", async () => {
    const session = await hookSession(t, policy);
    const pre = async (tool: string, input: Record<string, unknown>, cwd: string) =>
      decisionOf(await postHook(t, 'claude-code', session.token, claudePre(tool, input, { cwd })).expect(200)).decision;
    expect(await pre('Read', { file_path: 'README.md' }, REPO)).toBe('allow');
    expect(await pre('Write', { file_path: 'workflows/x.yml', content: '' }, `${REPO}/.github`)).toBe('deny');
    expect(await pre('Bash', { command: 'echo x > workflows/a.yml' }, `${REPO}/.github`)).toBe('deny');
    expect(await pre('Read', { file_path: 'a.txt' }, `${REPO}/secrets`)).toBe('deny');
    expect(await pre('Write', { file_path: 'docs/a.md', content: '' }, `${REPO}/.github`)).toBe('allow');

    const rows = await t.database.db('hook_roots').where({ execution_id: session.id }).select('root');
    expect(rows).toEqual([{ root: REPO }]);
    // Another replica serving the session's next call first reads the root the first call set, not its own cwd.
    expect(await t.deps.hookCalls.establishRoot(session.id, `${REPO}/.github`)).toBe(REPO);
  });
});
