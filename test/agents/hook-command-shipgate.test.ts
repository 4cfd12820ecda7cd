import { spawn } from 'node:child_process';
import path from 'node:path';
import { forcePushDeniedPolicy } from './support/agent-fixture.js';
import { startShipgate, type ListeningShipgate } from './support/agent-run.js';

// `shipgate hook gemini` against a running shipgate, configured as GET .../hooks?agent=gemini
// hands it out (SHIPGATE_URL and SHIPGATE_TOKEN): Gemini CLI's command hook (docs/agent-hooks.md).
const SHIPGATE = path.resolve(import.meta.dirname, '../../bin/shipgate.js');
let sg: ListeningShipgate;
let env: Record<string, string>;

beforeAll(async () => {
  sg = await startShipgate();
  const { t } = sg;
  await forcePushDeniedPolicy(t, 'gemini-agents', ['shell:exec', 'fs:*']);
  const opened = await t.request
    .post('/api/v1/agent-sessions')
    .set(t.admin.auth)
    .send({ name: 'gemini run', repo_root: 'acme/shop', compliance_policy: 'gemini-agents' })
    .expect(201);
  const hooks = await t.request.get(`/api/v1/agent-sessions/${opened.body.id}/hooks?agent=gemini`).set(t.admin.auth).expect(200);
  env = { SHIPGATE_URL: hooks.body.env.SHIPGATE_URL, SHIPGATE_TOKEN: opened.body.token };
}, 60_000);
afterAll(() => sg?.close());

function hook(input: unknown): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [SHIPGATE, 'hook', 'gemini'], { env: { PATH: process.env.PATH ?? '', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdin.end(JSON.stringify(input));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

const shell = (command: string, event = 'BeforeTool') => ({
  session_id: 'gemini-run-1',
  cwd: '/work/acme-shop',
  hook_event_name: event,
  tool_name: 'run_shell_command',
  tool_input: { command },
});

describe('shipgate hook gemini against shipgate', () => {
  it('exits 0 with the allow answer for an allowed command, 2 with the reason for a denied one', async () => {
    const allowed = await hook(shell('npm test'));
    expect([allowed.code, JSON.parse(allowed.stdout)]).toEqual([0, { decision: 'allow' }]);
    expect((await hook({ ...shell('npm test', 'AfterTool'), tool_response: { llmContent: 'ok' } })).code).toBe(0);
    const denied = await hook(shell('git push --force origin main'));
    expect(denied).toMatchObject({ code: 2, stderr: expect.stringContaining('shipgate DENIED: tool_rule:0') });
    expect(JSON.parse(denied.stdout)).toMatchObject({ decision: 'deny' });
  });

  it('exits 2 for an input shipgate refuses (422) and for a token it does not know (401)', async () => {
    expect(await hook({ not: 'a hook input' })).toMatchObject({ code: 2, stderr: expect.stringContaining('shipgate answered 422') });
    env = { ...env, SHIPGATE_TOKEN: 'not-a-token' };
    expect(await hook(shell('npm test'))).toMatchObject({ code: 2, stderr: expect.stringContaining('shipgate answered 401') });
  });
});
