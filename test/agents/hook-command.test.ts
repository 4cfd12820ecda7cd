import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readBody, sendJson, sendText, startHttpServer, type FakeHttpServer } from '../fakes/fake-http.js';

// `shipgate hook <agent>` (docs/agent-hooks.md, "The shipgate hook command"), run as an agent runs
// a command hook: the hook input on stdin, exit 0 to let the tool run, exit 2 to block it.
const SHIPGATE = path.resolve(import.meta.dirname, '../../bin/shipgate.js');
const GEMINI_INPUT = {
  session_id: 's-1',
  cwd: '/repo',
  hook_event_name: 'BeforeTool',
  tool_name: 'run_shell_command',
  tool_input: { command: 'ls' },
};

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function hook(agent: string, input: unknown, env: Record<string, string>, bin = SHIPGATE): Promise<Run> {
  const child = spawn(process.execPath, [bin, 'hook', agent], { env: { PATH: process.env.PATH ?? '', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdin.end(JSON.stringify(input));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** What the fake shipgate received and answers next. */
let received: { url: string; authorization: string | undefined; body: string }[] = [];
let answer: { status: number; body: unknown } = { status: 200, body: {} };
let shipgate: FakeHttpServer;

beforeAll(async () => {
  shipgate = await startHttpServer(async (req, res) => {
    received.push({ url: req.url ?? '', authorization: req.headers.authorization, body: await readBody(req) });
    if (typeof answer.body === 'string') return sendText(res, answer.status, answer.body);
    sendJson(res, answer.status, answer.body);
  });
});
afterAll(() => shipgate?.close());
beforeEach(() => {
  received = [];
});

const configured = () => ({ SHIPGATE_URL: `${shipgate.url}/`, SHIPGATE_TOKEN: 'sg-session-token' });

describe('shipgate hook', () => {
  it('exits 2 when shipgate cannot be reached, saying so on stderr', async () => {
    const unreachable = await hook('gemini', GEMINI_INPUT, { SHIPGATE_URL: 'http://127.0.0.1:9', SHIPGATE_TOKEN: 'sg-session-token' });
    expect(unreachable).toEqual({ code: 2, stdout: '', stderr: expect.stringContaining('could not be reached (ECONNREFUSED)') });
    expect(unreachable.stderr).not.toContain('sg-session-token');
  });

  it('starts without tsx or any module of the server (it runs once per tool call)', async () => {
    // bin/ alone, without node_modules or the sources beside it: an import of either would fail.
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'shipgate-bin-'));
    for (const file of ['shipgate.js', 'hook-command.js']) fs.copyFileSync(path.join(path.dirname(SHIPGATE), file), path.join(bin, file));
    fs.writeFileSync(path.join(bin, 'package.json'), JSON.stringify({ type: 'module' }));
    answer = { status: 200, body: {} };
    const alone = await hook('gemini', GEMINI_INPUT, configured(), path.join(bin, 'shipgate.js'));
    expect([alone.code, JSON.parse(alone.stdout)]).toEqual([0, {}]);
  });

  it('forwards the input with the token and exits 0 on allow, printing the answer for the agent', async () => {
    answer = { status: 200, body: { decision: 'allow' } };
    const allowed = await hook('gemini', GEMINI_INPUT, configured());
    expect([allowed.code, JSON.parse(allowed.stdout)]).toEqual([0, { decision: 'allow' }]);
    expect(received).toEqual([
      { url: '/api/v1/hooks/gemini', authorization: 'Bearer sg-session-token', body: JSON.stringify(GEMINI_INPUT) },
    ]);
    answer = { status: 200, body: {} };
    expect((await hook('gemini', { ...GEMINI_INPUT, hook_event_name: 'AfterTool' }, configured())).code).toBe(0);
  });

  it("exits 2 with the reason on stderr when shipgate denies, in each agent's answer format", async () => {
    answer = { status: 200, body: { decision: 'deny', reason: 'reads of .env* are denied' } };
    expect(await hook('gemini', GEMINI_INPUT, configured())).toMatchObject({ code: 2, stderr: 'reads of .env* are denied\n' });
    answer = { status: 200, body: { permissionDecision: 'deny', permissionDecisionReason: 'git push --force* is denied' } };
    expect(await hook('copilot', { sessionId: 's', toolName: 'bash' }, configured())).toMatchObject({
      code: 2,
      stderr: 'git push --force* is denied\n',
    });
    answer = {
      status: 200,
      body: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' } },
    };
    expect(await hook('claude-code', { session_id: 's' }, configured())).toMatchObject({ code: 2, stderr: 'no\n' });
    expect(received.map((r) => r.url)).toEqual(['/api/v1/hooks/gemini', '/api/v1/hooks/copilot', '/api/v1/hooks/claude-code']);
  });

  it('fails closed on any answer but a 200 with JSON, and without its configuration', async () => {
    answer = { status: 401, body: { detail: 'Unknown agent session token.' } };
    expect(await hook('gemini', GEMINI_INPUT, configured())).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('shipgate answered 401 (Unknown agent session token.)'),
    });
    answer = { status: 503, body: 'upstream down' };
    expect((await hook('gemini', GEMINI_INPUT, configured())).code).toBe(2);
    answer = { status: 200, body: 'not json' };
    expect((await hook('gemini', GEMINI_INPUT, configured())).code).toBe(2);
    expect(await hook('gemini', GEMINI_INPUT, { SHIPGATE_TOKEN: 't' })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('SHIPGATE_URL'),
    });
    expect(await hook('gemini', GEMINI_INPUT, { SHIPGATE_URL: shipgate.url })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('SHIPGATE_TOKEN'),
    });
    expect(await hook('cursor', GEMINI_INPUT, configured())).toMatchObject({ code: 2, stderr: expect.stringContaining('usage') });
  });
});
