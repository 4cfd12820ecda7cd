import fs from 'node:fs';
import path from 'node:path';
import { startFakeAnthropicStream, type FakeAnthropicStream } from '../fakes/fake-anthropic-stream.js';
import { ensureAgentClis } from './support/agent-clis.js';
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
  const { t } = sg;
  await t.request
    .post('/api/v1/policies')
    .set(t.admin.auth)
    .send({
      name: 'copilot-agents',
      ceiling: ['shell:exec', 'fs:*', 'network:*', 'agent:spawn'],
      tool_rules: [{ match: { command: 'git push --force*' }, verdict: 'deny' }],
    })
    .expect(201);
  const created = await t.request
    .post('/api/v1/agent-keys')
    .set(t.admin.auth)
    .send({ name: 'copilot cli', repo_root: REPO, compliance_policy: 'copilot-agents' })
    .expect(201);
  key = created.body.key;
  hooks = (await t.request.get(`/api/v1/agent-keys/${created.body.id}/hooks?agent=copilot`).set(t.admin.auth).expect(200)).body;
}, 15 * 60_000);
afterAll(async () => {
  await sg?.close();
  await model?.close();
});
beforeEach(() => model.reset());

const bash = (id: string, command: string) => ({ toolUses: [{ id, name: 'bash', input: { command, description: 'run it' } }] });

/** The sessions the key's runs opened, newest first, with their calls. */
async function sessionsOfKey() {
  const { t } = sg;
  const list = await t.request.get('/api/v1/executions?limit=100').set(t.admin.auth).expect(200);
  const ids = (list.body as { id: string; kind: string; repo_root: string }[])
    .filter((e) => e.kind === 'agent_session' && e.repo_root === REPO)
    .map((e) => e.id);
  return Promise.all(ids.map(async (id) => (await t.request.get(`/api/v1/executions/${id}`).set(t.admin.auth).expect(200)).body));
}

describe('Copilot CLI governed through the hooks shipgate hands out', () => {
  it('runs an allowed shell command and blocks a denied one, each recorded in the session its run opened', async () => {
    const dir = projectWith(hooks);
    model.script(bash('toolu_echo', 'echo hello > out.txt'), bash('toolu_push', 'git push --force origin main'), { text: 'Done.' });
    const run = await runCopilot(dir, model.url, key);
    expect(run.code).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'out.txt'), 'utf8')).toBe('hello\n');
    expect(model.toolResults().get('toolu_push')).toContain('shipgate DENIED: tool_rule:0');

    const [session] = await sessionsOfKey();
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
