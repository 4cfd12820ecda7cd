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

// docs/agent-hooks.md, "Records": a probe pushed with a GitHub token in the URL and sent an API key in a header; the
// session's export carried both in the clear (and a denied read of `.env.<AWS key>` its key in the capability).
const GITHUB_TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
const AWS_KEY = 'AKIAIOSFODNN7EXAMPLE';
const OPENAI_KEY = 'sk-proj-abcdefghijklmnopqrstuvwx';

let t: TestApp;
let policy: string;
beforeAll(async () => {
  t = await createTestApp();
  policy = await hookPolicy(t);
}, 60_000);
afterAll(async () => t?.close());

describe("secrets in a coding agent's tool calls", () => {
  it('are decided on as sent but recorded, signed and exported replaced, the export verifying', async () => {
    const session = await hookSession(t, policy);
    const hook = (body: unknown) => postHook(t, 'claude-code', session.token, body).expect(200);
    const push = claudePre('Bash', {
      command: `git push https://x-access-token:${GITHUB_TOKEN}@github.com/acme/shop HEAD && OPENAI_API_KEY=${OPENAI_KEY} curl https://x`,
    });
    expect(decisionOf(await hook(push)).decision).toBe('allow');
    await hook(claudePost(push, { stdout: '', stderr: '', interrupted: false }));
    expect(decisionOf(await hook(claudePre('Read', { file_path: `.env.${AWS_KEY}` }))).decision).toBe('deny');
    const crashed = claudePre('Bash', { command: `echo ${GITHUB_TOKEN}` });
    await hook(crashed);

    const record = await executionRecord(t, session.id);
    expect(record.tool_calls[0].arguments.command).toBe(
      'git push https://x-access-token:[REDACTED:secrets:github_token]@github.com/acme/shop HEAD && OPENAI_API_KEY=[REDACTED:secrets:openai_key] curl https://x',
    );
    expect(record.tool_calls[1].capability).toBe('fs:read:.env.[REDACTED:secrets:aws_access_key]');
    expect(record.incomplete_tool_calls[0].arguments.command).toBe('echo [REDACTED:secrets:github_token]');

    await t.request.post(`/api/v1/agent-sessions/${session.id}/close`).set(t.admin.auth).expect(200);
    const exported = await t.request.get(`/api/v1/compliance/${session.id}/export`).set(t.admin.auth).expect(200);
    for (const secret of [GITHUB_TOKEN, AWS_KEY, OPENAI_KEY]) expect(exported.text).not.toContain(secret);
    expect((await verifiedExport(t, session.id)).code).toBe(0);
  });
});
