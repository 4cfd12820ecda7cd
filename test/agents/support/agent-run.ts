import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../mcp/support/everything-upstream.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { CLAUDE_BIN, COPILOT_BIN, GEMINI_JS } from './agent-clis.js';

/** shipgate on a real loopback port (the agents' hooks reach it there), which a test can stop and start again. */
export interface ListeningShipgate {
  t: TestApp;
  url: string;
  /** Stops listening: the hooks' requests are refused from now on, as if shipgate were down. */
  stopListening(): Promise<void>;
  listen(): Promise<void>;
  close(): Promise<void>;
}

export async function startShipgate(env: Record<string, string> = {}): Promise<ListeningShipgate> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const t = await createTestApp({ SHIPGATE_PUBLIC_URL: url, ...env });
  let server: http.Server | null = null;
  const stopListening = async () => {
    if (!server) return;
    const closing = server;
    server = null;
    closing.closeAllConnections();
    await new Promise((resolve) => closing.close(resolve));
  };
  const listen = async () => {
    if (server) return;
    const opened = http.createServer(t.app.callback());
    await new Promise<void>((resolve) => opened.listen(port, '127.0.0.1', resolve));
    server = opened;
  };
  await listen();
  return {
    t,
    url,
    stopListening,
    listen,
    async close() {
      await stopListening();
      await t.close();
    },
  };
}

/** A handed-out hook configuration (GET /agent-sessions/{id}/hooks). */
export interface HookSettings {
  path: string;
  settings: Record<string, unknown>;
}

/** A fresh repository checkout holding `files` and the hook configuration exactly as handed out. */
export function projectWith(hooks: HookSettings, files: Record<string, string> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shipgate-agent-project-'));
  for (const [name, content] of Object.entries({ ...files, [hooks.path]: JSON.stringify(hooks.settings, null, 2) })) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  return dir;
}

export interface AgentRun {
  code: number | null;
  /** stdout and stderr. */
  output: string;
  ms: number;
}

/**
 * Runs a CLI to its end, as root, with nothing of this process's environment but PATH: an
 * isolated HOME (the CLIs write their state there) and no auto-update or telemetry.
 */
async function run(
  bin: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
  timeoutMs: number,
  keepHome?: string,
): Promise<AgentRun> {
  const home = keepHome ?? fs.mkdtempSync(path.join(os.tmpdir(), 'shipgate-agent-home-'));
  const started = Date.now();
  const child = spawn(bin, args, { cwd, env: { PATH: process.env.PATH ?? '', HOME: home, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(timer);
  if (!keepHome) fs.rmSync(home, { recursive: true, force: true });
  return { code, output, ms: Date.now() - started };
}

/** Claude Code in print mode against the fake model, with SHIPGATE_TOKEN in its environment (docs/agent-hooks.md). */
export function runClaude(project: string, modelUrl: string, token: string, timeoutMs = 120_000): Promise<AgentRun> {
  return run(
    CLAUDE_BIN,
    ['-p', 'Do the task.', '--output-format', 'json'],
    project,
    {
      ANTHROPIC_BASE_URL: modelUrl,
      ANTHROPIC_API_KEY: 'fake-model-key',
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      SHIPGATE_TOKEN: token,
    },
    timeoutMs,
  );
}

/** Copilot CLI unpacks itself (~235 MB) into its HOME's cache at its first run: its runs of one test file share a HOME. */
let copilotHome: string | undefined;

/**
 * Copilot CLI in prompt mode against the fake model (Anthropic wire, no GitHub login), trusting
 * the folder (repository hooks load only then) and allowing its plain-http hook to loopback.
 */
export function runCopilot(project: string, modelUrl: string, token: string, timeoutMs = 120_000): Promise<AgentRun> {
  const args = ['--no-auto-update', '--disable-client-telemetry', '-p', 'Do the task.', '--allow-all-tools', '--output-format', 'json'];
  return run(
    COPILOT_BIN,
    args,
    project,
    {
      COPILOT_OFFLINE: 'true',
      COPILOT_PROVIDER_BASE_URL: modelUrl,
      COPILOT_PROVIDER_TYPE: 'anthropic',
      COPILOT_PROVIDER_API_KEY: 'fake-model-key',
      COPILOT_MODEL: 'claude-sonnet-4.5',
      COPILOT_AUTO_UPDATE: 'false',
      COPILOT_ALLOW_ALL: 'true',
      COPILOT_HOOK_ALLOW_LOCALHOST: '1',
      SHIPGATE_TOKEN: token,
    },
    timeoutMs,
    (copilotHome ??= fs.mkdtempSync(path.join(os.tmpdir(), 'shipgate-copilot-home-'))),
  );
}

/** A folder holding a `shipgate` command (this checkout's bin/shipgate.js), as an installed shipgate puts one on PATH. */
function shipgateOnPath(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shipgate-bin-'));
  const cli = path.resolve(import.meta.dirname, '../../../bin/shipgate.js');
  fs.writeFileSync(path.join(dir, 'shipgate'), `#!/bin/sh\nexec "${process.execPath}" "${cli}" "$@"\n`, { mode: 0o755 });
  return dir;
}

/**
 * Gemini CLI in headless mode against the fake Gemini API, its shell and write tools offered
 * (`--yolo`), the folder trusted (project hooks load only then), with the command hook's
 * SHIPGATE_URL and SHIPGATE_TOKEN in its environment and `shipgate` on its PATH.
 */
export function runGemini(project: string, modelUrl: string, env: { SHIPGATE_URL: string; SHIPGATE_TOKEN: string }, timeoutMs = 120_000) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'shipgate-gemini-home-'));
  fs.mkdirSync(path.join(home, '.gemini'));
  fs.writeFileSync(path.join(home, '.gemini/settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }));
  return run(
    process.execPath,
    [GEMINI_JS, '-p', 'Do the task.', '--yolo'],
    project,
    {
      PATH: `${shipgateOnPath()}:${process.env.PATH ?? ''}`,
      GOOGLE_GEMINI_BASE_URL: modelUrl,
      GEMINI_API_KEY: 'fake-model-key',
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
      ...env,
    },
    timeoutMs,
    home,
  );
}
