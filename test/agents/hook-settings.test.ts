import { createTestApp, type TestApp } from '../support/test-app.js';

// GET /agent-sessions/{id}/hooks and /agent-keys/{id}/hooks (docs/agent-hooks.md, "Configuration
// handed out"): the file each coding agent needs, the credential left to the environment.
let t: TestApp;
const URL = 'https://gate.example.com';

beforeAll(async () => {
  t = await createTestApp({ SHIPGATE_PUBLIC_URL: URL });
  await t.request
    .post('/api/v1/policies')
    .set(t.admin.auth)
    .send({ name: 'slow-ask', ceiling: ['repo:write'], ask: ['repo:write'], ask_timeout_seconds: 600 })
    .expect(201);
}, 60_000);
afterAll(() => t?.close());

const openSession = async (body: Record<string, unknown> = {}) => {
  const res = await t.request
    .post('/api/v1/agent-sessions')
    .set(t.admin.auth)
    .send({ name: 'hooks only', repo_root: 'acme/widgets', ...body });
  expect([res.status, res.body.detail]).toEqual([201, undefined]);
  return res.body as { id: string; token: string };
};
const hooksOf = (path: string, agent: string, auth = t.admin.auth) => t.request.get(`/api/v1/${path}/hooks`).query({ agent }).set(auth);

describe('the hook configuration handed out', () => {
  it('gives Claude Code http hooks that block on failure, wait longer than the policy asks, and take the token from the environment', async () => {
    const session = await openSession();
    const res = await hooksOf(`agent-sessions/${session.id}`, 'claude-code');
    expect(res.status).toBe(200);
    const hook = {
      type: 'http',
      url: `${URL}/api/v1/hooks/claude-code`,
      headers: { Authorization: 'Bearer $SHIPGATE_TOKEN' },
      allowedEnvVars: ['SHIPGATE_TOKEN'],
      onFailure: 'block',
      timeout: 150,
    };
    expect(res.body).toEqual({
      agent: 'claude-code',
      path: '.claude/settings.json',
      settings: { hooks: { PreToolUse: [{ matcher: '*', hooks: [hook] }], PostToolUse: [{ matcher: '*', hooks: [hook] }] } },
      env: { SHIPGATE_TOKEN: expect.stringContaining('never in a file') },
      timeout_seconds: 150,
    });
    expect(res.text).not.toContain(session.token);
  });

  it("gives Copilot CLI http hooks and Gemini CLI command hooks running shipgate hook, and follows the policy's ask timeout", async () => {
    const session = await openSession({ compliance_policy: 'slow-ask', permissions: ['repo:write'] });
    const copilot = await hooksOf(`agent-sessions/${session.id}`, 'copilot');
    const copilotHook = {
      type: 'http',
      url: `${URL}/api/v1/hooks/copilot`,
      headers: { Authorization: 'Bearer $SHIPGATE_TOKEN' },
      allowedEnvVars: ['SHIPGATE_TOKEN'],
      timeoutSec: 630,
    };
    expect(copilot.body).toEqual({
      agent: 'copilot',
      path: '.github/hooks/shipgate.json',
      settings: { version: 1, hooks: { preToolUse: [copilotHook], postToolUse: [copilotHook] } },
      env: { SHIPGATE_TOKEN: expect.any(String) },
      timeout_seconds: 630,
    });
    const gemini = await hooksOf(`agent-sessions/${session.id}`, 'gemini');
    const geminiHooks = [{ matcher: '*', hooks: [{ type: 'command', command: 'shipgate hook gemini', timeout: 630_000 }] }];
    expect(gemini.body).toMatchObject({
      path: '.gemini/settings.json',
      settings: { hooks: { BeforeTool: geminiHooks, AfterTool: geminiHooks } },
      env: { SHIPGATE_URL: URL, SHIPGATE_TOKEN: expect.any(String) },
    });
    for (const res of [copilot, gemini]) expect(res.text).not.toContain(session.token);
  });

  it("hands an agent key's configuration to an ADMIN, under the key's pinned policy", async () => {
    const created = await t.request
      .post('/api/v1/agent-keys')
      .set(t.admin.auth)
      .send({ name: 'claude in CI', repo_root: 'acme/widgets', compliance_policy: 'slow-ask', permissions: ['repo:write'] });
    expect([created.status, created.body.servers]).toEqual([201, []]);
    const res = await hooksOf(`agent-keys/${created.body.id}`, 'claude-code');
    expect([res.status, res.body.timeout_seconds, res.text.includes(created.body.key)]).toEqual([200, 630, false]);
    const operator = await t.user('OPERATOR');
    expect((await hooksOf(`agent-keys/${created.body.id}`, 'claude-code', operator.auth)).status).toBe(403);
    expect((await hooksOf(`agent-keys/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`, 'claude-code')).status).toBe(404);
  });

  it('refuses an unknown agent (422), a session the caller may not read (404), and no credentials (401)', async () => {
    const session = await openSession();
    const unknown = await hooksOf(`agent-sessions/${session.id}`, 'cursor');
    expect([unknown.status, JSON.stringify(unknown.body.detail)]).toEqual([422, expect.stringContaining('agent')]);
    const stranger = await t.user('OPERATOR');
    const hidden = await hooksOf(`agent-sessions/${session.id}`, 'claude-code', stranger.auth);
    expect([hidden.status, typeof hidden.body.detail]).toEqual([404, 'string']);
    expect((await t.request.get(`/api/v1/agent-sessions/${session.id}/hooks?agent=gemini`)).status).toBe(401);
  });
});
