import { generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { runShipgate, tempDataDir, type ShipgateProcess } from '../../support/run-shipgate.js';

/** Keys the API under test and its worker processes share, as replicas of one deployment do. */
export function sharedKeys(): Record<string, string> {
  return {
    SHIPGATE_SECRET_KEY: randomBytes(32).toString('base64'),
    SHIPGATE_SIGNING_KEY: generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }) as string,
  };
}

export interface WorkerProcess extends ShipgateProcess {
  /** Execution ids this worker finished runs of (from its `agent.finished` log lines). */
  finished(): string[];
  stop(): Promise<void>;
}

/**
 * `node bin/shipgate.js worker` against the test's database: a real, separate worker process.
 * Heartbeats every half second, so a killed one is presumed dead after two seconds.
 */
export async function startWorkerProcess(databaseUrl: string, env: Record<string, string>): Promise<WorkerProcess> {
  const dataDir = tempDataDir();
  const proc = runShipgate(['worker'], {
    DATABASE_URL: databaseUrl,
    SHIPGATE_DATA_DIR: dataDir,
    SHIPGATE_WORKER_HEARTBEAT_SECONDS: '0.5',
    SHIPGATE_WORKER_CONCURRENCY: '2',
    LOG_LEVEL: 'info',
    ...env,
  });
  void proc.exited.then(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  await proc.printed('"msg":"worker started"', 60_000);
  return {
    ...proc,
    finished: () =>
      proc
        .output()
        .split('\n')
        .filter((line) => line.includes('"event":"agent.finished"'))
        .map((line) => (JSON.parse(line) as { execution_id: string }).execution_id),
    async stop() {
      if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
      proc.child.kill('SIGTERM');
      await proc.exited;
    },
  };
}
