import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type Koa from 'koa';

const ROOT = path.resolve(import.meta.dirname, '../../..');
export const BUNDLE = path.join(ROOT, 'action/dist/index.js');

export interface ActionRun {
  code: number | null;
  /** stdout and stderr, as the job log shows them (workflow commands included). */
  log: string;
  outputs: Record<string, string>;
  /** What the step wrote to GITHUB_STEP_SUMMARY. */
  summary: string;
  /** The variables the step exported to later steps (GITHUB_ENV). */
  exported: Record<string, string>;
  ms: number;
}

let checkedOut: string | undefined;

/**
 * The Action as a runner checks it out: the committed files (package.json, whose `"type":
 * "module"` makes the bundle ESM, and action/dist/index.js) without node_modules, so an import
 * the bundle left out would fail here as it would on a runner.
 */
function checkout(): string {
  if (checkedOut) return checkedOut;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shipgate-action-checkout-'));
  fs.mkdirSync(path.join(dir, 'action/dist'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
  fs.copyFileSync(path.join(ROOT, 'action.yml'), path.join(dir, 'action.yml'));
  fs.copyFileSync(BUNDLE, path.join(dir, 'action/dist/index.js'));
  checkedOut = path.join(dir, 'action/dist/index.js');
  return checkedOut;
}

/** Outputs as @actions/core writes them to GITHUB_OUTPUT: `name<<DELIMITER\nvalue\nDELIMITER`. */
function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const pattern = /^([^\n<]+)<<(\S+)\n([\s\S]*?)\n\2$/gm;
  for (const [, name, , value] of text.matchAll(pattern)) outputs[name] = value;
  return outputs;
}

/**
 * Runs the committed bundle as a runner does: `node action/dist/index.js` (in a checkout
 * without node_modules) with each input as
 * INPUT_<NAME> (upper case, hyphens kept), GITHUB_OUTPUT / GITHUB_STEP_SUMMARY files, the
 * event payload at GITHUB_EVENT_PATH, and nothing of this process's environment but PATH.
 */
export async function runAction(
  inputs: Record<string, string>,
  { env = {}, event, workspace }: { env?: Record<string, string>; event?: unknown; workspace?: string } = {},
): Promise<ActionRun> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shipgate-action-'));
  const files = {
    output: path.join(dir, 'output'),
    summary: path.join(dir, 'summary'),
    env: path.join(dir, 'env'),
    event: path.join(dir, 'event.json'),
  };
  for (const file of [files.output, files.summary, files.env]) fs.writeFileSync(file, '');
  fs.writeFileSync(files.event, JSON.stringify(event ?? {}));
  const runnerEnv: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    GITHUB_ACTIONS: 'true',
    GITHUB_REPOSITORY: 'acme/widgets',
    GITHUB_SHA: 'e'.repeat(40),
    GITHUB_REF: 'refs/heads/main',
    GITHUB_EVENT_NAME: 'push',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_RUN_ID: '4242',
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_ENV: files.env,
    GITHUB_WORKSPACE: workspace ?? dir,
    GITHUB_EVENT_PATH: files.event,
    ...Object.fromEntries(Object.entries(inputs).map(([name, value]) => [`INPUT_${name.replace(/ /g, '_').toUpperCase()}`, value])),
    ...env,
  };
  const started = Date.now();
  const child = spawn(process.execPath, [checkout()], { cwd: dir, env: runnerEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const run = {
    code,
    log,
    outputs: parseOutputs(fs.readFileSync(files.output, 'utf8')),
    summary: fs.readFileSync(files.summary, 'utf8'),
    exported: parseOutputs(fs.readFileSync(files.env, 'utf8')),
    ms: Date.now() - started,
  };
  fs.rmSync(dir, { recursive: true, force: true });
  return run;
}

/** Lines of the log that contain `secret`, other than the runner's mask command (which hides it). */
export function printed(run: ActionRun, secret: string): string[] {
  return [...run.log.split('\n'), run.summary, ...Object.values(run.outputs)].filter(
    (line) => line.includes(secret) && line !== `::add-mask::${secret}`,
  );
}

/** The test app's Koa server on a real loopback port, as a runner would reach a shipgate service. */
export async function listen(app: Koa): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
