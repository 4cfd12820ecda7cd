import { generateKeyPairSync } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrateJobQueue } from '../../db/job-queue.js';
import { openBenchDatabase, type BenchDatabase } from './bench-database.js';
import { startServer } from './release-bench-env.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface WorkerBenchServer {
  database: BenchDatabase;
  url: string;
  /** The first registered user's key (ADMIN). */
  apiKey: string;
  close(): Promise<void>;
}

/** A fresh bench database and the server in its own process with its job worker, as `npm start` runs it. */
export async function startWorkerBenchServer(env: NodeJS.ProcessEnv = {}): Promise<WorkerBenchServer> {
  const database = await openBenchDatabase();
  await migrateJobQueue(database.db, database.url);
  const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
  const { child, url } = await startServer({
    ...process.env,
    DATABASE_URL: database.url,
    SHIPGATE_SIGNING_KEY: pem,
    SHIPGATE_DATA_DIR: path.join(ROOT, '.shipgate/bench'),
    BENCH_SERVER_WORKER: '1',
    ...env,
  });
  const close = async () => {
    child.disconnect();
    await new Promise((r) => child.once('exit', r));
    await database.close();
  };
  try {
    const registered = await fetch(`${url}/api/v1/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.com', name: 'bench', password: 'bench password' }),
    }).then((r) => r.json() as Promise<{ api_key: string }>);
    return { database, url, apiKey: registered.api_key, close };
  } catch (error) {
    await close();
    throw error;
  }
}
