import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { connectEmbeddedSuperuser } from './connect-embedded-superuser.js';
import { embeddedPasswordFile } from './embedded-password-file.js';
import { postgresBinaries, sharedHome, type PostgresBinaries } from './postgres-binaries.js';
import { EMBEDDED_POSTGRES_REMEDY, EmbeddedPostgresError, postgresUser, reachableBy, type PostgresUser } from './postgres-user.js';
import { writeEmbeddedPgHba } from './write-embedded-pg-hba.js';

export interface EmbeddedDatabase {
  /** Holds the superuser's password: never log or print it. */
  url: string;
  /** Where the cluster's files are (after following `dataDir/postgres` when it is a link). */
  clusterDir: string;
  /** The loopback port it listens on, and the file holding the superuser's password (for psql). */
  port: number;
  passwordFile: string;
  /** What was done so PostgreSQL could run here (root in a private directory); said in the banner. */
  notes: string[];
  stop(): Promise<void>;
}

const READY = 'database system is ready to accept connections';

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
 * The cluster directory. Normally `dataDir/postgres`. As root, PostgreSQL runs as the postgres
 * user; when that user cannot reach `dataDir` (a checkout in a 0700 directory), the cluster
 * lives in the shared home instead, owned by that user with mode 0700, and `dataDir/postgres`
 * becomes a link to it, so later starts (and a moved checkout) find it again.
 */
function placeCluster(dataDir: string, user: PostgresUser | undefined, notes: string[]): string {
  const link = path.join(dataDir, 'postgres');
  fs.mkdirSync(dataDir, { recursive: true });
  let dir = link;
  if (fs.lstatSync(link, { throwIfNoEntry: false })?.isSymbolicLink()) dir = fs.realpathSync(link);
  else if (!reachableBy(user, dataDir)) {
    if (fs.existsSync(link))
      throw new EmbeddedPostgresError(
        `The "${user!.name}" user cannot reach the embedded database in ${link}: make its parent directories traversable, ${EMBEDDED_POSTGRES_REMEDY}.`,
      );
    dir = fs.mkdtempSync(path.join(sharedHome(user!), 'data-'));
    fs.symlinkSync(dir, link);
  }
  if (dir !== link)
    notes.push(`database files in ${dir} (linked from ${link}: the ${user?.name ?? 'postgres'} user cannot reach ${dataDir})`);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  if (user) fs.chownSync(dir, user.uid, user.gid);
  return dir;
}

/** Starts a PostgreSQL binary as `user` (when root), in its own process group: a Ctrl-C reaches shipgate, which drains first. */
function launch(binary: string, args: string[], user: PostgresUser | undefined): ChildProcess {
  return spawn(binary, args, {
    ...(user ? { uid: user.uid, gid: user.gid } : {}),
    env: { ...process.env, LC_ALL: 'C' }, // messages in English: readiness is read from them
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
}

/** Relays a child's output line by line; resolves with the exit code, or the spawn error. */
function watch(child: ChildProcess, onLog: (line: string) => void, onLine: (line: string) => void = () => {}): Promise<number | Error> {
  const relay = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      onLog(line);
      onLine(line);
    }
  };
  child.stdout!.on('data', relay);
  child.stderr!.on('data', relay);
  return new Promise((resolve) => {
    child.on('error', resolve);
    child.on('close', (code, signal) => resolve(code ?? new Error(`terminated by ${signal}`)));
  });
}

/** Runs initdb with `password` for the superuser (through a file initdb reads once, never its arguments). */
async function initialise(
  binaries: PostgresBinaries,
  dir: string,
  password: string,
  user: PostgresUser | undefined,
  onLog: (line: string) => void,
) {
  const passwordFile = path.join(path.dirname(dir), `.pwfile-${randomBytes(6).toString('hex')}`);
  fs.writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  if (user) fs.chownSync(passwordFile, user.uid, user.gid);
  const lines: string[] = [];
  try {
    const args = [
      `--pgdata=${dir}`,
      '--auth=scram-sha-256',
      '--username=postgres',
      `--pwfile=${passwordFile}`,
      '--encoding=UTF8',
      '--no-locale',
    ];
    const result = await watch(launch(binaries.initdb, args, user), onLog, (line) => lines.push(line));
    if (result !== 0)
      throw new EmbeddedPostgresError(
        `initdb failed in ${dir} (${result instanceof Error ? result.message : `exit ${result}`}): ${lines.slice(-3).join(' ')}`,
      );
  } finally {
    fs.rmSync(passwordFile, { force: true });
  }
}

function startServer(binaries: PostgresBinaries, dir: string, port: number, user: PostgresUser | undefined, onLog: (line: string) => void) {
  // TCP on loopback only; no Unix socket, so no shared socket directory to collide in.
  const args = ['-D', dir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='];
  const child = launch(binaries.postgres, args, user);
  const lines: string[] = [];
  return new Promise<{ child: ChildProcess; exited: Promise<unknown> }>((resolve, reject) => {
    const exited = watch(child, onLog, (line) => {
      lines.push(line);
      if (line.includes(READY)) resolve({ child, exited });
    });
    void exited.then((result) =>
      reject(
        new EmbeddedPostgresError(
          `PostgreSQL did not start (${result instanceof Error ? result.message : `exit ${result}`}): ${lines.slice(-3).join(' ')}`,
        ),
      ),
    );
  });
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
 * Starts PostgreSQL from the binaries embedded-postgres installs, with its data in
 * `dataDir/postgres` (created once, found again on the next start), on a free loopback port.
 * As root it runs as the postgres user, and whatever that user cannot reach (a checkout in a
 * private directory) is placed where it can; `notes` says what was done. `port` is for tests
 * that stop and start the same cluster.
 *
 * The superuser has a random password per cluster, set at initdb and kept in
 * `dataDir/postgres-password`; pg_hba.conf admits loopback TCP with that password only (SCRAM),
 * rewritten on every start. A cluster an older shipgate made (password `postgres`) gets its
 * random password on its first start here (docs/operations.md, "Embedded PostgreSQL").
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  onLog: (line: string) => void = () => {},
  { port: fixedPort }: { port?: number } = {},
): Promise<EmbeddedDatabase> {
  const user = postgresUser();
  const notes: string[] = [];
  const binaries = await postgresBinaries(user);
  if (binaries.copiedTo)
    notes.push(`PostgreSQL binaries copied to ${binaries.copiedTo} (the ${user!.name} user cannot reach node_modules)`);
  const dir = placeCluster(path.resolve(dataDir), user, notes);
  const passwordFile = embeddedPasswordFile(path.resolve(dataDir));
  if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) {
    // Staged before initdb and committed after: a start that dies in between finds it staged.
    await initialise(binaries, dir, passwordFile.stageNew(), user, onLog);
    passwordFile.commit();
  }
  writeEmbeddedPgHba(dir, user);
  // A previous run killed with SIGKILL leaves a stale pid file that blocks the start.
  const pidFile = path.join(dir, 'postmaster.pid');
  if (fs.existsSync(pidFile) && !processAlive(Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]))) fs.rmSync(pidFile);
  const port = fixedPort ?? (await freePort());
  const server = await startServer(binaries, dir, port, user, onLog);
  // Should shipgate exit without stop(), PostgreSQL still gets its fast-shutdown signal.
  const stopOnExit = () => server.child.kill('SIGINT');
  process.on('exit', stopOnExit);
  const stop = async () => {
    process.off('exit', stopOnExit);
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGINT');
    await server.exited;
  };
  let password: string;
  try {
    const superuser = await connectEmbeddedSuperuser(port, passwordFile, dir);
    password = superuser.password;
    try {
      // Checked on every start, not only after initdb: a first start may have died before it.
      const { rowCount } = await superuser.client.query("SELECT 1 FROM pg_database WHERE datname = 'shipgate'");
      if (!rowCount) await superuser.client.query('CREATE DATABASE shipgate');
    } finally {
      await superuser.client.end().catch(() => {});
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/shipgate`;
  return { url, clusterDir: dir, port, passwordFile: passwordFile.path, notes, stop };
}

/**
 * A throwaway embedded PostgreSQL in a new temporary directory (tests, benchmarks); stop()
 * also removes its files (wherever they had to be placed).
 */
export async function startTemporaryPostgres(prefix: string): Promise<EmbeddedDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(dir, 0o755); // as root, so the postgres user can reach it where the temp directory allows
  const remove = () => {
    const cluster = path.join(dir, 'postgres');
    if (fs.lstatSync(cluster, { throwIfNoEntry: false })?.isSymbolicLink())
      fs.rmSync(fs.realpathSync(cluster), { recursive: true, force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const database = await startEmbeddedPostgres(dir).catch((error: unknown) => {
    remove();
    throw error;
  });
  return {
    ...database,
    async stop() {
      await database.stop();
      remove();
    },
  };
}
