import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startFakeOidcIssuer, type FakeOidcIssuer } from '../fakes/fake-oidc-issuer.js';
import { freePort } from '../mcp/support/everything-upstream.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { printed, runAction } from './support/run-action.js';

// `mode: session` with `agent` (docs/action.md, "A coding agent's hooks"): the bundled Action,
// run as a runner runs it with the job's OIDC token, writes the agent's hook configuration as
// GET /agent-sessions/{id}/hooks hands it out, and the token reaches later steps only through
// the environment.
let issuer: FakeOidcIssuer;
let t: TestApp;
let url: string;
let server: http.Server;

beforeAll(async () => {
  issuer = await startFakeOidcIssuer('acme/widgets');
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  t = await createTestApp({ SHIPGATE_PUBLIC_URL: url, SHIPGATE_OIDC_ISSUERS: issuer.url, SHIPGATE_OIDC_OWNERS: 'acme' });
  server = http.createServer(t.app.callback());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
}, 60_000);
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await t?.close();
  await issuer?.close();
});

const workspace = () => fs.mkdtempSync(path.join(os.tmpdir(), 'shipgate-workspace-'));
const handedOut = async (sessionId: string, agent: string) =>
  (await t.request.get(`/api/v1/agent-sessions/${sessionId}/hooks`).query({ agent }).set(t.admin.auth)).body;

describe('the Action in mode session with agent', () => {
  it("writes Claude Code's settings beside the project's own, and hands the masked token on through the environment only", async () => {
    const dir = workspace();
    fs.mkdirSync(path.join(dir, '.claude'));
    const own = { permissions: { allow: ['Bash(npm test)'] }, hooks: { Stop: [{ hooks: [{ type: 'command', command: 'notify' }] }] } };
    fs.writeFileSync(path.join(dir, '.claude/settings.json'), JSON.stringify(own));
    const run = await runAction({ 'api-url': url, mode: 'session', agent: 'claude-code' }, { env: issuer.runnerEnv, workspace: dir });
    expect([run.code, run.log]).toEqual([0, expect.stringContaining('Wrote .claude/settings.json')]);
    const { token, 'session-id': id } = run.outputs;
    const written = JSON.parse(fs.readFileSync(path.join(dir, '.claude/settings.json'), 'utf8'));
    const { settings } = await handedOut(id, 'claude-code');
    expect(written).toEqual({ permissions: own.permissions, hooks: { ...own.hooks, ...settings.hooks } });
    expect(written.hooks.PreToolUse[0].hooks[0]).toMatchObject({ url: `${url}/api/v1/hooks/claude-code`, onFailure: 'block' });
    // The token: masked before anything printed it, exported to later steps, written into no file of the workspace.
    expect(run.exported).toEqual({ SHIPGATE_TOKEN: token });
    expect(run.log.indexOf(`::add-mask::${token}`)).toBeLessThan(run.log.indexOf('Wrote .claude/settings.json'));
    expect(printed(run, token).filter((line) => line !== token)).toEqual([]);
    expect(fs.readFileSync(path.join(dir, '.claude/settings.json'), 'utf8')).not.toContain(token);

    // Run again (a re-run of the job): shipgate's hooks are replaced, not added twice.
    const again = await runAction({ 'api-url': url, mode: 'session', agent: 'claude-code' }, { env: issuer.runnerEnv, workspace: dir });
    expect(again.code).toBe(0);
    const rewritten = JSON.parse(fs.readFileSync(path.join(dir, '.claude/settings.json'), 'utf8'));
    expect(rewritten.hooks.PreToolUse).toHaveLength(1);
  });

  it("writes Copilot CLI's hooks file and lets it load a plain-http hook; Gemini CLI's gets SHIPGATE_URL too", async () => {
    const dir = workspace();
    const copilot = await runAction({ 'api-url': url, mode: 'session', agent: 'copilot' }, { env: issuer.runnerEnv, workspace: dir });
    expect(copilot.code).toBe(0);
    const file = JSON.parse(fs.readFileSync(path.join(dir, '.github/hooks/shipgate.json'), 'utf8'));
    expect(file).toEqual((await handedOut(copilot.outputs['session-id'], 'copilot')).settings);
    expect(copilot.exported).toEqual({ SHIPGATE_TOKEN: copilot.outputs.token, COPILOT_HOOK_ALLOW_LOCALHOST: '1' });
    const gemini = await runAction({ 'api-url': url, mode: 'session', agent: 'gemini' }, { env: issuer.runnerEnv, workspace: dir });
    expect(gemini.exported).toEqual({ SHIPGATE_TOKEN: gemini.outputs.token, SHIPGATE_URL: url });
    expect(JSON.parse(fs.readFileSync(path.join(dir, '.gemini/settings.json'), 'utf8')).hooks.BeforeTool[0].hooks[0].command).toBe(
      'shipgate hook gemini',
    );
  });

  it("lets a job's OIDC token read only its own repository's session configuration", async () => {
    const run = await runAction({ 'api-url': url, mode: 'session', agent: 'gemini' }, { env: issuer.runnerEnv, workspace: workspace() });
    const hooksWith = async (repository: string) =>
      t.request
        .get(`/api/v1/agent-sessions/${run.outputs['session-id']}/hooks?agent=claude-code`)
        .set({ Authorization: `Bearer ${await issuer.sign(repository)}` });
    expect((await hooksWith('acme/widgets')).status).toBe(200);
    const foreign = await hooksWith('acme/gadgets');
    expect([foreign.status, foreign.body.detail]).toEqual([403, expect.stringContaining('"repository" claim is acme/gadgets')]);
  });

  it('refuses an unknown agent, and a session with neither servers nor agent', async () => {
    const run = await runAction({ 'api-url': url, mode: 'session', agent: 'cursor' }, { env: issuer.runnerEnv, workspace: workspace() });
    expect([run.code, run.log]).toEqual([1, expect.stringContaining('agent must be one of claude-code, copilot, gemini (got "cursor").')]);
    const neither = await runAction({ 'api-url': url, mode: 'session' }, { env: issuer.runnerEnv, workspace: workspace() });
    expect(neither.log).toContain('mode session needs servers');
  });
});
