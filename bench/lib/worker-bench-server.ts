import { fork, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrateJobQueue } from '../../db/job-queue.js';
import { openBenchDatabase, type BenchDatabase } from './bench-database.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The Node flags `npm start` gives the server (package.json's `start` script: `node <flags> bin/shipgate.js serve`). */
function startNodeFlags(): string[] {
  const start: string = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start;
  const flags = /^node((?: --\S+)*) bin\/shipgate\.js\b/.exec(start);
  if (!flags) throw new Error(`package.json's start script is not "node <flags> bin/shipgate.js ...": ${start}`);
  return flags[1].split(' ').filter(Boolean);
}

/** The bench server (bench/lib/release-bench-server.ts) in its own process, with the Node flags of `npm start`. */
function startServer(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  // BENCH_CPU_PROF=<dir> writes a V8 CPU profile of the server process there.
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const execArgv = [...startNodeFlags(), ...profile];
  const child = fork(path.join(ROOT, 'bin/run-ts.js'), [path.join(ROOT, 'bench/lib/release-bench-server.ts')], {
    env,
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m: { url: string }) => resolve({ child, url: m.url }));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
}

export interface WorkerBenchServer {
  database: BenchDatabase;
  url: string;
  /** Every replica's URL (`url` first), with `replicas` above 1. */
  urls: string[];
  /** The server's process id (benches read its CPU time). */
  pid: number | undefined;
  /** The first registered user (ADMIN) and its key. */
  userId: string;
  apiKey: string;
  /** The server's signing key (PKCS#8 PEM), for benches that sign as it does. */
  signingKeyPem: string;
  close(): Promise<void>;
}

/**
 * A fresh bench database and the server in its own process, as `npm start` runs it: with its job
 * worker unless `worker` is false (the release benches measure the API alone).
 */
export async function startWorkerBenchServer(
  options: { env?: NodeJS.ProcessEnv; worker?: boolean; replicas?: number } = {},
): Promise<WorkerBenchServer> {
  const { env = {}, worker = true, replicas = 1 } = options;
  const database = await openBenchDatabase();
  if (worker) await migrateJobQueue(database.db, database.url);
  const signingKeyPem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
  const serverEnv = {
    ...process.env,
    DATABASE_URL: database.url,
    SHIPGATE_SIGNING_KEY: signingKeyPem,
    SHIPGATE_DATA_DIR: path.join(ROOT, '.shipgate/bench'),
    ...env,
  };
  const { child, url } = await startServer({ ...serverEnv, ...(worker ? { BENCH_SERVER_WORKER: '1' } : {}) });
  // More API replicas on the same database (and data directory, so the same secret key), without workers.
  const others = await Promise.all(Array.from({ length: replicas - 1 }, () => startServer(serverEnv)));
  const close = async () => {
    for (const server of [child, ...others.map((o) => o.child)]) {
      server.disconnect();
      await new Promise((r) => server.once('exit', r));
    }
    await database.close();
  };
  try {
    const registered = await fetch(`${url}/api/v1/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.com', name: 'bench', password: 'bench password' }),
    }).then((r) => r.json() as Promise<{ id: string; api_key: string }>);
    return {
      database,
      url,
      urls: [url, ...others.map((o) => o.url)],
      pid: child.pid,
      userId: registered.id,
      apiKey: registered.api_key,
      signingKeyPem,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
