import fs from 'node:fs';
import path from 'node:path';
import { startFakeGeminiStream, type FakeGeminiStream } from '../fakes/fake-gemini-stream.js';
import { startEverythingUpstream } from '../mcp/support/everything-upstream.js';
import { ensureAgentClis } from './support/agent-clis.js';
import { agentKeyWithHooks, agentSessionsOf, forcePushDeniedPolicy } from './support/agent-fixture.js';
import { projectWith, runGemini, startShipgate, type HookSettings, type ListeningShipgate } from './support/agent-run.js';

// The real Gemini CLI 0.61.0 (test/agents/package.json) against a fake Gemini API, its command
// hooks exactly as GET /agent-keys/{id}/hooks?agent=gemini hands them out (`shipgate hook gemini`
// on PATH, SHIPGATE_URL and SHIPGATE_TOKEN in the environment), with a repository agent key: the
// run opens its own governed session (docs/agent-hooks.md).
let sg: ListeningShipgate;
let model: FakeGeminiStream;
let hooks: HookSettings & { env: Record<string, string> };
let key: string;
const REPO = 'acme/gemini-shop';

beforeAll(async () => {
  await ensureAgentClis();
  model = await startFakeGeminiStream();
  sg = await startShipgate();
  await forcePushDeniedPolicy(sg.t, 'gemini-cli-agents', ['shell:exec', 'fs:*']);
  ({ key, hooks } = await agentKeyWithHooks(sg.t, { name: 'gemini cli', repo: REPO, policy: 'gemini-cli-agents', agent: 'gemini' }));
}, 15 * 60_000);
afterAll(async () => {
  await sg?.close();
  await model?.close();
});
beforeEach(() => model.reset());

const shell = (command: string) => ({ calls: [{ name: 'run_shell_command', args: { command } }] });
const run = (dir: string) => runGemini(dir, model.url, { SHIPGATE_URL: hooks.env.SHIPGATE_URL, SHIPGATE_TOKEN: key });

describe('Gemini CLI governed through the command hooks shipgate hands out', () => {
  it('runs an allowed shell command and blocks a denied one, each recorded in the session its run opened', async () => {
    const dir = projectWith(hooks);
    model.script(shell('echo hello > out.txt'), shell('git push --force origin main'), { text: 'Done.' });
    const result = await run(dir);
    expect(result).toMatchObject({ code: 0 });
    expect(fs.readFileSync(path.join(dir, 'out.txt'), 'utf8')).toBe('hello\n');
    const [, refused] = model.functionResponses();
    expect(refused).toContain('shipgate DENIED: tool_rule:0');

    const [session] = await agentSessionsOf(sg.t, REPO);
    expect(session.tool_calls.map((c: Record<string, unknown>) => [c.seq, c.tool, c.verdict, c.reason, c.capability])).toEqual([
      [1, 'run_shell_command', 'allowed', null, 'shell:exec'],
      [2, 'run_shell_command', 'denied', 'tool_rule:0', 'shell:exec'],
    ]);
    expect(session.tool_calls[0]).toMatchObject({ arguments: { command: 'echo hello > out.txt' }, result_digest: expect.any(String) });
  }, 240_000);

  it("decides an MCP tool by the server and tool its hook input names (mcp:<server>/<tool>), not by the agent's name for it", async () => {
    const upstream = await startEverythingUpstream();
    try {
      const settings = { ...hooks.settings, mcpServers: { everything: { httpUrl: upstream.url } } };
      const dir = projectWith({ ...hooks, settings });
      model.script({ calls: [{ name: 'mcp_everything_echo', args: { message: 'hi' } }] }, { text: 'Done.' });
      expect(await run(dir)).toMatchObject({ code: 0 });
      expect(model.functionResponses().join('\n')).toContain('capability_not_granted: mcp:everything/echo');
      const calls = (await agentSessionsOf(sg.t, REPO)).flatMap((session) => session.tool_calls as Record<string, unknown>[]);
      expect(calls.filter((c) => c.tool === 'mcp_everything_echo').map((c) => [c.verdict, c.reason, c.capability])).toEqual([
        ['denied', 'capability_not_granted', 'mcp:everything/echo'],
      ]);
    } finally {
      await upstream.stop();
    }
  }, 240_000);

  it('blocks the shell command when shipgate cannot be reached (the command hook exits 2)', async () => {
    const dir = projectWith(hooks);
    model.script(shell('echo ran > stopped.txt'), { text: 'Could not.' });
    await sg.stopListening();
    try {
      await run(dir);
    } finally {
      await sg.listen();
    }
    expect(fs.existsSync(path.join(dir, 'stopped.txt'))).toBe(false);
    expect(model.functionResponses().join('\n')).toMatch(/shipgate/i);
  }, 240_000);
});
