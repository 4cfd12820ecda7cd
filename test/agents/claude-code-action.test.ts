import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runAction } from '../action/support/run-action.js';
import { startFakeAnthropicStream, type FakeAnthropicStream } from '../fakes/fake-anthropic-stream.js';
import { startFakeOidcIssuer, type FakeOidcIssuer } from '../fakes/fake-oidc-issuer.js';
import { ensureAgentClis } from './support/agent-clis.js';
import { runClaude, startShipgate, type ListeningShipgate } from './support/agent-run.js';

// The Action's mode: session with agent: claude-code, then the real Claude Code in the same
// workspace, as the job's next step runs it: the hooks come from the file the Action wrote and
// the token only from the environment the Action exported (docs/action.md).
let issuer: FakeOidcIssuer;
let sg: ListeningShipgate;
let model: FakeAnthropicStream;

beforeAll(async () => {
  await ensureAgentClis();
  issuer = await startFakeOidcIssuer('acme/widgets');
  model = await startFakeAnthropicStream();
  sg = await startShipgate({ SHIPGATE_OIDC_ISSUERS: issuer.url, SHIPGATE_OIDC_OWNERS: 'acme' });
  await sg.t.request
    .post('/api/v1/policies')
    .set(sg.t.admin.auth)
    .send({
      name: 'ci-agents',
      ceiling: ['shell:exec', 'fs:*'],
      tool_rules: [{ match: { command: 'git push --force*' }, verdict: 'deny' }],
    })
    .expect(201);
}, 15 * 60_000);
afterAll(async () => {
  await sg?.close();
  await model?.close();
  await issuer?.close();
});

it("governs Claude Code in the step after the Action's, through the file it wrote and the token it exported", async () => {
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'shipgate-job-workspace-'));
  const action = await runAction(
    { 'api-url': sg.url, mode: 'session', agent: 'claude-code', 'compliance-policy': 'ci-agents' },
    { env: issuer.runnerEnv, workspace },
  );
  expect(action.code).toBe(0);
  expect(fs.readFileSync(path.join(workspace, '.claude/settings.json'), 'utf8')).not.toContain(action.exported.SHIPGATE_TOKEN);

  model.script(
    { toolUses: [{ id: 'toolu_echo', name: 'Bash', input: { command: 'echo built > build.txt', description: 'build' } }] },
    { toolUses: [{ id: 'toolu_push', name: 'Bash', input: { command: 'git push --force origin main', description: 'push' } }] },
    { text: 'Done.' },
  );
  const agent = await runClaude(workspace, model.url, action.exported.SHIPGATE_TOKEN);
  expect(agent.code).toBe(0);
  expect(fs.readFileSync(path.join(workspace, 'build.txt'), 'utf8')).toBe('built\n');
  expect(model.toolResults().get('toolu_push')).toContain('shipgate DENIED: tool_rule:0');

  const record = await sg.t.request.get(`/api/v1/executions/${action.outputs['session-id']}`).set(sg.t.admin.auth).expect(200);
  expect(record.body).toMatchObject({ kind: 'agent_session', repo_root: 'acme/widgets' });
  expect(record.body.tool_calls.map((c: Record<string, unknown>) => [c.tool, c.verdict, c.reason])).toEqual([
    ['Bash', 'allowed', null],
    ['Bash', 'denied', 'tool_rule:0'],
  ]);
}, 240_000);
