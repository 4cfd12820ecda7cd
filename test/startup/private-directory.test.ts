import { jest } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, runNode, runShipgate, type ShipgateProcess } from '../support/run-shipgate.js';

jest.setTimeout(120_000);

const asRoot = process.getuid?.() === 0;
let privateDir: string;
let checkout: string;
let running: ShipgateProcess | undefined;

/**
 * A checkout inside a 0700 directory, as a clone in root's home or a `mktemp -d` folder is: the
 * sources and node_modules hard-linked from this one (a second or so), no `.shipgate` yet.
 */
beforeAll(() => {
  privateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shipgate-private-'));
  fs.chmodSync(privateDir, 0o700);
  checkout = path.join(privateDir, 'shipgate');
  fs.mkdirSync(checkout);
  const entries = fs.readdirSync(ROOT).filter((name) => !name.startsWith('.') && name !== 'coverage');
  const copied = spawnSync('cp', ['-al', ...entries.map((name) => path.join(ROOT, name)), checkout]);
  expect(copied.status).toBe(0);
});

afterEach(async () => {
  await running?.stop();
  running = undefined;
});

afterAll(() => {
  // As root the cluster may live outside the checkout (docs/operations.md, "Embedded PostgreSQL"): remove it too.
  const cluster = path.join(checkout, '.shipgate', 'postgres');
  if (fs.lstatSync(cluster, { throwIfNoEntry: false })?.isSymbolicLink())
    fs.rmSync(fs.realpathSync(cluster), { recursive: true, force: true });
  fs.rmSync(privateDir, { recursive: true, force: true });
});

function sharedClusters(): string[] {
  return fs.existsSync('/var/lib/shipgate') ? fs.readdirSync('/var/lib/shipgate').filter((name) => name.startsWith('data-')) : [];
}

describe('a checkout in a private (0700) directory, no DATABASE_URL', () => {
  it('npm start works there: the banner says where PostgreSQL was placed, the first user registers, SIGTERM exits 0', async () => {
    running = runShipgate(['serve'], { PORT: '0', HOST: '127.0.0.1' }, checkout);
    const url = await running.printed(/shipgate is running at (http:\/\/127\.0\.0\.1:\d+)/, 60_000);
    if (asRoot) {
      expect(running.output()).toMatch(/PostgreSQL binaries copied to \S+ \(the postgres user cannot reach node_modules\)/);
      expect(running.output()).toMatch(/database files in \S+ \(linked from \S+\.shipgate\/postgres: the postgres user cannot reach/);
    }
    const registered = await fetch(`${url}/api/v1/auth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'root@example.com', name: 'Root', password: 'correct horse battery' }),
    });
    expect(registered.status).toBe(201);
    // The superuser's password stays in the private directory, shipgate's alone, wherever the cluster went (docs/operations.md, "Embedded PostgreSQL").
    const passwordFile = fs.statSync(path.join(checkout, '.shipgate', 'postgres-password'));
    expect({ uid: passwordFile.uid, mode: passwordFile.mode & 0o777 }).toEqual({ uid: process.getuid!(), mode: 0o600 });
    running.child.kill('SIGTERM');
    expect(await running.exited).toEqual({ code: 0, signal: null });
    expect(running.output()).not.toMatch(/EACCES|\n\s+at /);
  });

  it("the test suite's own embedded PostgreSQL (jest global setup) starts there, with a private temp directory too", async () => {
    const tmp = path.join(privateDir, 'tmp');
    fs.mkdirSync(tmp, { mode: 0o700 });
    const script = `
      const { default: setup } = await import('./test/support/global-setup.mjs');
      const { default: teardown } = await import('./test/support/global-teardown.mjs');
      await setup();
      const pg = (await import('pg')).default;
      const client = new pg.Client(process.env.SHIPGATE_TEST_SERVER_URL.replace(/\\/[^/]*$/, '/' + process.env.SHIPGATE_TEST_TEMPLATE));
      await client.connect();
      const { rows } = await client.query('SELECT count(*)::int AS n FROM users');
      await client.end();
      console.log('template ready, users:', rows[0].n);
      await teardown();
      console.log('torn down');`;
    const clustersBefore = sharedClusters();
    running = runNode(['--input-type=module', '-e', script], { TMPDIR: tmp }, checkout);
    expect(await running.exited).toEqual({ code: 0, signal: null });
    expect(running.output()).toContain('template ready, users: 0');
    expect(running.output()).toContain('torn down');
    // The throwaway cluster removed itself, wherever it had to be placed.
    expect(fs.readdirSync(tmp).filter((name) => name.startsWith('shipgate-'))).toEqual([]);
    expect(sharedClusters().filter((name) => !clustersBefore.includes(name))).toEqual([]);
  });

  it('where it cannot work, it stops with one sentence naming the remedy and exit 1, never a stack trace', async () => {
    // A cluster already initialised inside the private directory cannot be moved for the postgres user.
    const dataDir = path.join(privateDir, 'old-data');
    fs.mkdirSync(path.join(dataDir, 'postgres'), { recursive: true });
    running = runShipgate(['serve'], { PORT: '0', SHIPGATE_DATA_DIR: dataDir }, checkout);
    const exited = await Promise.race([running.exited, running.printed('shipgate is running at').then(() => 'started')]);
    if (!asRoot) return expect(exited).toBe('started'); // only root hands PostgreSQL to another user
    expect(exited).toEqual({ code: 1, signal: null });
    const lines = running.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^The "postgres" user cannot reach the embedded database in .* run shipgate as a regular user, set SHIPGATE_DATA_DIR .*, or set DATABASE_URL/,
    );
  });
});
