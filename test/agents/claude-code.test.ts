import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startFakeAnthropicStream, type FakeAnthropicStream } from '../fakes/fake-anthropic-stream.js';
import type { TestUser } from '../support/test-app.js';
import { ensureAgentClis } from './support/agent-clis.js';
import { projectWith, runClaude, startShipgate, type ListeningShipgate } from './support/agent-run.js';

// The real Claude Code binary (test/agents/package.json) against a fake model, its hooks configured
// exactly as GET /agent-sessions/{id}/hooks?agent=claude-code hands them out (docs/agent-hooks.md).
let sg: ListeningShipgate;
let model: FakeAnthropicStream;
let approver: TestUser;
const SECRET = 'DATABASE_PASSWORD=hunter2-never-to-the-model';
const RULES = [
  { match: { command: 'git push --force*' }, verdict: 'deny' },
  { match: { read: '.env*' }, verdict: 'deny' },
  { match: { write: '.github/workflows/**' }, verdict: 'ask' },
];

beforeAll(async () => {
  await ensureAgentClis();
  model = await startFakeAnthropicStream();
  sg = await startShipgate();
  approver = await sg.t.user('APPROVER');
  for (const [name, timeout] of [
    ['coding-agents', 120],
    ['coding-agents-quick', 5],
  ] as const)
    await sg.t.request
      .post('/api/v1/policies')
      .set(sg.t.admin.auth)
      .send({ name, ceiling: ['shell:exec', 'fs:*', 'network:*', 'agent:spawn'], tool_rules: RULES, ask_timeout_seconds: timeout })
      .expect(201);
}, 15 * 60_000);
afterAll(async () => {
  await sg?.close();
  await model?.close();
});
beforeEach(() => model.reset());

/** A session for hooks only, and a checkout with its hook configuration as handed out. */
async function governedProject(policy = 'coding-agents', files: Record<string, string> = {}) {
  const { t } = sg;
  const opened = await t.request
    .post('/api/v1/agent-sessions')
    .set(t.admin.auth)
    .send({ name: 'claude run', repo_root: 'acme/shop', compliance_policy: policy });
  expect(opened.status).toBe(201);
  const hooks = await t.request.get(`/api/v1/agent-sessions/${opened.body.id}/hooks?agent=claude-code`).set(t.admin.auth).expect(200);
  return { id: opened.body.id as string, token: opened.body.token as string, dir: projectWith(hooks.body, files) };
}

const recordOf = async (id: string) => (await sg.t.request.get(`/api/v1/executions/${id}`).set(sg.t.admin.auth).expect(200)).body;
const bash = (command: string) => ({ name: 'Bash', input: { command, description: 'run it' } });

/** Approves the first held call of `sessionId` once it shows in the pending list, as an APPROVER would in the studio. */
async function approveWhenHeld(sessionId: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const pending = await sg.t.request.get('/api/v1/agent-calls/pending').set(approver.auth).expect(200);
    const held = (pending.body as { id: string; execution_id: string }[]).find((call) => call.execution_id === sessionId);
    if (held) return void (await sg.t.request.post(`/api/v1/agent-calls/${held.id}/approve`).set(approver.auth).send({}).expect(200));
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('no held call showed up');
}

describe('Claude Code governed through the hooks shipgate hands out', () => {
  it('runs an allowed command, blocks a read of .env before its content reaches the model, records every call of the run (a sub-agent included) in order, and the export verifies', async () => {
    const run = await governedProject('coding-agents', { '.env': `${SECRET}\n` });
    model.script(
      { toolUses: [{ ...bash('echo hello > out.txt'), id: 'toolu_echo' }] },
      { toolUses: [{ ...bash('cat .env'), id: 'toolu_cat' }] },
      {
        toolUses: [
          {
            id: 'toolu_agent',
            name: 'Agent',
            input: { description: 'helper', prompt: 'Write sub.txt.', subagent_type: 'general-purpose', run_in_background: false },
          },
        ],
      },
      { toolUses: [{ ...bash('echo sub > sub.txt'), id: 'toolu_sub' }] }, // the sub-agent's turn
      { text: 'Sub-task done.' }, // the sub-agent's report
      { text: 'All done.' },
    );
    const agent = await runClaude(run.dir, model.url, run.token);
    expect([agent.code, agent.output]).toEqual([0, expect.stringContaining('All done.')]);

    expect(fs.readFileSync(path.join(run.dir, 'out.txt'), 'utf8')).toBe('hello\n');
    expect(fs.readFileSync(path.join(run.dir, 'sub.txt'), 'utf8')).toBe('sub\n');
    const results = model.toolResults();
    expect(results.get('toolu_cat')).toContain('shipgate DENIED: tool_rule:1');
    expect(model.sentText()).not.toContain('hunter2');

    const record = await recordOf(run.id);
    expect(
      record.tool_calls.map((c: Record<string, unknown>) => [c.seq, c.tool, c.verdict, c.reason, c.call_id, c.agent_id ?? null]),
    ).toEqual([
      [1, 'Bash', 'allowed', null, 'toolu_echo', null],
      [2, 'Bash', 'denied', 'tool_rule:1', 'toolu_cat', null],
      [3, 'Bash', 'allowed', null, 'toolu_sub', expect.any(String)],
      [4, 'Agent', 'allowed', null, 'toolu_agent', null],
    ]);
    expect(record.tool_calls[0]).toMatchObject({ capability: 'shell:exec', arguments: { command: 'echo hello > out.txt' } });
    expect(record.tool_calls[0].certificate_id).toEqual(expect.any(String));
    expect(JSON.stringify(record)).not.toContain('hunter2');

    await sg.t.request.post(`/api/v1/agent-sessions/${run.id}/close`).set(sg.t.admin.auth).expect(200);
    const exported = await sg.t.request.get(`/api/v1/compliance/${run.id}/export`).set(sg.t.admin.auth).expect(200);
    const keys = await sg.t.request.get('/api/v1/compliance/keys').set(sg.t.admin.auth).expect(200);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shipgate-claude-export-'));
    fs.writeFileSync(path.join(dir, 'export.json'), JSON.stringify(exported.body));
    fs.writeFileSync(path.join(dir, 'keys.json'), JSON.stringify(keys.body));
    const shipgate = path.resolve(import.meta.dirname, '../../bin/shipgate.js');
    const verified = await promisify(execFile)(process.execPath, [
      shipgate,
      'verify',
      path.join(dir, 'export.json'),
      '--keys',
      path.join(dir, 'keys.json'),
    ]);
    expect(verified.stdout).toMatch(/OK: the package verifies\./);
  }, 240_000);

  it('holds a write to .github/workflows under ask until an APPROVER approves it, then writes the file', async () => {
    const run = await governedProject();
    const file = path.join(run.dir, '.github/workflows/ci.yml');
    model.script(
      { toolUses: [{ id: 'toolu_write', name: 'Write', input: { file_path: file, content: 'on: push\n' } }] },
      { text: 'Written.' },
    );
    const [agent] = await Promise.all([runClaude(run.dir, model.url, run.token), approveWhenHeld(run.id)]);
    expect(agent.code).toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toBe('on: push\n');
    const [call] = (await recordOf(run.id)).tool_calls;
    expect(call).toMatchObject({ tool: 'Write', verdict: 'allowed', capability: 'fs:write:.github/workflows/ci.yml' });
  }, 240_000);

  it('denies the held write when nobody decides in time', async () => {
    const run = await governedProject('coding-agents-quick');
    const file = path.join(run.dir, '.github/workflows/ci.yml');
    model.script(
      { toolUses: [{ id: 'toolu_write', name: 'Write', input: { file_path: file, content: 'on: push\n' } }] },
      { text: 'Gave up.' },
    );
    const agent = await runClaude(run.dir, model.url, run.token);
    expect(agent.code).toBe(0);
    expect(fs.existsSync(file)).toBe(false);
    expect(model.toolResults().get('toolu_write')).toContain('approval_timed_out');
    expect((await recordOf(run.id)).tool_calls).toEqual([
      expect.objectContaining({ tool: 'Write', verdict: 'denied', reason: 'approval_timed_out' }),
    ]);
  }, 240_000);

  it('blocks the tool call when shipgate cannot be reached (the same configuration fails closed)', async () => {
    const run = await governedProject();
    model.script({ toolUses: [{ ...bash('echo ran > stopped.txt'), id: 'toolu_down' }] }, { text: 'Could not.' });
    await sg.stopListening();
    try {
      const agent = await runClaude(run.dir, model.url, run.token);
      expect(agent.code).toBe(0);
    } finally {
      await sg.listen();
    }
    expect(fs.existsSync(path.join(run.dir, 'stopped.txt'))).toBe(false);
    expect(model.toolResults().get('toolu_down')).toContain('blocking because onFailure is "block"');
    expect((await recordOf(run.id)).tool_calls).toEqual([]);
  }, 240_000);
});
