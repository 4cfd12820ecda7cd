import fs from 'node:fs';
import path from 'node:path';
import { startFakeAnthropicStream, type FakeAnthropicStream } from '../fakes/fake-anthropic-stream.js';
import { ensureAgentClis } from './support/agent-clis.js';
import { agentKeyWithHooks, agentSessionsOf, forcePushDeniedPolicy } from './support/agent-fixture.js';
import { projectWith, runCopilot, startShipgate, type ListeningShipgate } from './support/agent-run.js';

// The real Copilot CLI 1.0.102 (test/agents/package.json) against a fake model (Anthropic wire),
// its hooks file exactly as GET /agent-keys/{id}/hooks?agent=copilot hands it out, with a
// repository agent key as SHIPGATE_TOKEN: the run opens its own governed session (docs/agent-hooks.md).
let sg: ListeningShipgate;
let model: FakeAnthropicStream;
let key: string;
let hooks: { path: string; settings: Record<string, unknown> };
const REPO = 'acme/copilot-shop';

beforeAll(async () => {
  await ensureAgentClis();
  model = await startFakeAnthropicStream();
  sg = await startShipgate();
  await forcePushDeniedPolicy(sg.t, 'copilot-agents', ['shell:exec', 'fs:*', 'network:*', 'agent:spawn']);
  ({ key, hooks } = await agentKeyWithHooks(sg.t, { name: 'copilot cli', repo: REPO, policy: 'copilot-agents', agent: 'copilot' }));
}, 15 * 60_000);
afterAll(async () => {
  await sg?.close();
  await model?.close();
});
beforeEach(() => model.reset());

const bash = (id: string, command: string) => ({ toolUses: [{ id, name: 'bash', input: { command, description: 'run it' } }] });

describe('Copilot CLI governed through the hooks shipgate hands out', () => {
  it('runs an allowed shell command and blocks a denied one, each recorded in the session its run opened', async () => {
    const dir = projectWith(hooks);
    model.script(bash('toolu_echo', 'echo hello > out.txt'), bash('toolu_push', 'git push --force origin main'), { text: 'Done.' });
    const run = await runCopilot(dir, model.url, key);
    expect(run.code).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'out.txt'), 'utf8')).toBe('hello\n');
    expect(model.toolResults().get('toolu_push')).toContain('shipgate DENIED: tool_rule:0');

    const [session] = await agentSessionsOf(sg.t, REPO);
    expect(session.tool_calls.map((c: Record<string, unknown>) => [c.seq, c.tool, c.verdict, c.reason, c.capability])).toEqual([
      [1, 'bash', 'allowed', null, 'shell:exec'],
      [2, 'bash', 'denied', 'tool_rule:0', 'shell:exec'],
    ]);
    expect(session.tool_calls[0].arguments).toMatchObject({ command: 'echo hello > out.txt' });
  }, 240_000);

  it('blocks the shell command when shipgate cannot be reached', async () => {
    const dir = projectWith(hooks);
    model.script(bash('toolu_down', 'echo ran > stopped.txt'), { text: 'Could not.' });
    await sg.stopListening();
    try {
      expect((await runCopilot(dir, model.url, key)).code).toBe(0);
    } finally {
      await sg.listen();
    }
    expect(fs.existsSync(path.join(dir, 'stopped.txt'))).toBe(false);
    expect(model.toolResults().get('toolu_down')).toContain('Denied by preToolUse hook');
  }, 240_000);
});
