import { jest } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres, startTemporaryPostgres } from '../../db/start-embedded-postgres.js';
import { runShipgate, tempDataDir, type ShipgateProcess } from '../support/run-shipgate.js';
import { KEPT_NOTE, makePreviousVersionCluster } from './support/previous-version-cluster.js';

jest.setTimeout(180_000); // a cold start compiles the sources through tsx and may initialise a cluster

let running: ShipgateProcess | undefined;
let dataDir: string;

beforeEach(() => {
  dataDir = tempDataDir();
});
afterEach(async () => {
  await running?.stop();
  running = undefined;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Connects as the superuser over loopback TCP; 'accepted', or the server's SQLSTATE. */
async function connectAs(port: number, password: string): Promise<string> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
  try {
    await client.connect();
    return 'accepted';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Runs a query on the embedded cluster's `database` as the superuser. */
async function query(port: number, password: string, database: string, sql: string): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database });
  await client.connect();
  try {
    return (await client.query(sql)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

const INVALID_PASSWORD = '28P01';
const passwordFile = () => path.join(dataDir, 'postgres-password');
const stagedFile = () => `${passwordFile()}.new`;
const mode = (file: string) => fs.statSync(file).mode & 0o777;

/** `npm start` on `dataDir`, debug logs on (PostgreSQL's own lines too); the embedded cluster's port, from its pid file. */
async function startShipgate(): Promise<{ url: string; port: number }> {
  running = runShipgate(['serve'], { SHIPGATE_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'debug' });
  const url = await running.printed(/shipgate is running at (http:\/\/127\.0\.0\.1:\d+)/);
  const port = Number(fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[3]);
  return { url, port };
}

/** What the `embedded PostgreSQL started` log line tells an operator who wants psql. */
function startedLine(): { port: number; password_file: string } {
  const line = running!
    .output()
    .split('\n')
    .find((text) => text.includes('"embedded PostgreSQL started"'));
  return JSON.parse(line!) as { port: number; password_file: string };
}

async function stopShipgate(): Promise<void> {
  running!.child.kill('SIGTERM');
  expect(await running!.exited).toEqual({ code: 0, signal: null });
}

function register(url: string, email: string): Promise<Response> {
  return fetch(`${url}/api/v1/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, name: 'Kept', password: 'correct horse battery' }),
  });
}

describe('the embedded PostgreSQL is private', () => {
  it('npm start on a new data dir: a random superuser password in a 0600 file, postgres/postgres refused over TCP, the password printed nowhere', async () => {
    const { url, port } = await startShipgate();
    expect((await register(url, 'first@example.com')).status).toBe(201);
    expect(await connectAs(port, 'postgres')).toBe(INVALID_PASSWORD);
    expect(mode(passwordFile())).toBe(0o600);
    const password = fs.readFileSync(passwordFile(), 'utf8').trim();
    expect(password).toMatch(/^[\w-]{43}$/); // 32 random bytes, base64url
    expect(await connectAs(port, password)).toBe('accepted');
    expect(startedLine()).toMatchObject({ port, password_file: passwordFile() });
    const [role] = await query(port, password, 'postgres', "SELECT rolpassword FROM pg_authid WHERE rolname = 'postgres'");
    expect(role.rolpassword).toMatch(/^SCRAM-SHA-256\$/);
    const hba = fs.readFileSync(path.join(dataDir, 'postgres', 'pg_hba.conf'), 'utf8');
    expect(hba.split('\n').filter((l) => l && !l.startsWith('#'))).toEqual([
      expect.stringMatching(/^host\s+all\s+all\s+127\.0\.0\.1\/32\s+scram-sha-256$/),
    ]);
    await stopShipgate();
    expect(running!.output()).toContain('embedded postgres'); // PostgreSQL's own lines were logged, and
    expect(running!.output()).not.toContain(password); // neither they, the banner nor any other line holds it
  });

  it('a data dir from the previous version (password postgres) still starts with its data, then refuses postgres/postgres; the next start uses the recorded password', async () => {
    await makePreviousVersionCluster(dataDir);
    const first = await startShipgate();
    expect((await register(first.url, 'after-upgrade@example.com')).status).toBe(201);
    expect(await connectAs(first.port, 'postgres')).toBe(INVALID_PASSWORD);
    const password = fs.readFileSync(passwordFile(), 'utf8').trim();
    expect(password).not.toBe('postgres');
    expect(mode(passwordFile())).toBe(0o600);
    expect(fs.existsSync(stagedFile())).toBe(false);
    expect(await query(first.port, password, 'shipgate', 'SELECT note FROM kept')).toEqual([{ note: KEPT_NOTE }]);
    const hba = fs.readFileSync(path.join(dataDir, 'postgres', 'pg_hba.conf'), 'utf8');
    expect(hba).not.toMatch(/^[^#]*\s(trust|password)\s*$/m);
    await stopShipgate();
    expect(running!.output()).not.toContain(password);

    const again = await startShipgate();
    expect(fs.readFileSync(passwordFile(), 'utf8').trim()).toBe(password);
    const login = await fetch(`${again.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'after-upgrade@example.com', password: 'correct horse battery' }),
    });
    expect(login.status).toBe(200);
    await stopShipgate();
  });

  it('a password file the cluster refuses stops the start with one sentence naming the file, exit 1, never the password', async () => {
    await makePreviousVersionCluster(dataDir);
    const wrong = randomBytes(32).toString('base64url');
    fs.writeFileSync(passwordFile(), `${wrong}\n`, { mode: 0o600 });
    running = runShipgate(['serve'], { PORT: '0', SHIPGATE_DATA_DIR: dataDir });
    const exited = await Promise.race([running.exited, running.printed('shipgate is running at').then(() => 'started')]);
    expect(exited).toEqual({ code: 1, signal: null });
    const lines = running.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(
      `The embedded PostgreSQL in ${path.join(dataDir, 'postgres')} refuses the password in ${passwordFile()}: restore that file, or reset the password as docs/operations.md ("Embedded PostgreSQL") says.`,
    );
  });
});

describe('a start that died while giving a previous version cluster its password', () => {
  it('after staging a password and before ALTER ROLE: the next start still gets in with postgres and records a new one', async () => {
    await makePreviousVersionCluster(dataDir);
    fs.writeFileSync(stagedFile(), `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600 });
    const postgres = await startEmbeddedPostgres(dataDir);
    try {
      const port = Number(new URL(postgres.url).port);
      expect(await connectAs(port, 'postgres')).toBe(INVALID_PASSWORD);
      const password = fs.readFileSync(passwordFile(), 'utf8').trim();
      expect(fs.existsSync(stagedFile())).toBe(false);
      expect(await connectAs(port, password)).toBe('accepted');
      expect(await query(port, password, 'shipgate', 'SELECT note FROM kept')).toEqual([{ note: KEPT_NOTE }]);
    } finally {
      await postgres.stop();
    }
  });

  it('after ALTER ROLE and before recording it: the next start gets in with the staged password and records it', async () => {
    const changed = randomBytes(32).toString('base64url');
    await makePreviousVersionCluster(dataDir, changed);
    fs.writeFileSync(stagedFile(), `${changed}\n`, { mode: 0o600 });
    const postgres = await startEmbeddedPostgres(dataDir);
    try {
      expect(fs.readFileSync(passwordFile(), 'utf8').trim()).toBe(changed);
      expect(fs.existsSync(stagedFile())).toBe(false);
      expect(await query(Number(new URL(postgres.url).port), changed, 'shipgate', 'SELECT note FROM kept')).toEqual([{ note: KEPT_NOTE }]);
    } finally {
      await postgres.stop();
    }
  });
});

it("the test suite's own embedded PostgreSQL (startTemporaryPostgres, jest's global setup without DATABASE_URL) refuses postgres/postgres too", async () => {
  const postgres = await startTemporaryPostgres('shipgate-password-test-');
  try {
    const { port, password } = new URL(postgres.url);
    expect(await connectAs(Number(port), 'postgres')).toBe(INVALID_PASSWORD);
    expect(await query(Number(port), decodeURIComponent(password), 'shipgate', 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
  } finally {
    await postgres.stop();
  }
});
