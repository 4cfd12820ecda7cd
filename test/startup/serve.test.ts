import { jest } from '@jest/globals';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { processAlive, runShipgate, tempDataDir, type ShipgateProcess } from '../support/run-shipgate.js';

jest.setTimeout(180_000); // a cold start compiles the sources through tsx and may initialise a cluster

const password = 'correct horse battery';
let running: ShipgateProcess | undefined;
// Each test starts from a data dir of its own, so it passes alone and in any order.
let dataDir: string;

beforeEach(() => {
  dataDir = tempDataDir();
});
afterEach(async () => {
  await running?.stop();
  running = undefined;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function start(): Promise<string> {
  running = runShipgate(['serve'], { SHIPGATE_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' });
  const url = await running.printed(/shipgate is running at (http:\/\/127\.0\.0\.1:\d+)/);
  expect(url).not.toMatch(/:0$/);
  for (;;) {
    const ready = await fetch(`${url}/readyz`).catch(() => undefined);
    if (ready?.status === 200) return url;
    await new Promise((r) => setTimeout(r, 100));
  }
}

type Json = Record<string, string>;

function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
}

/** Sends the headers and half the body now; the rest when the returned function is called. */
function slowRegister(url: string, email: string): { finish(): void; response: Promise<{ status: number; body: string }> } {
  const body = Buffer.from(JSON.stringify({ email, name: 'Slow', password }));
  const req = http.request(`${url}/api/v1/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Content-Length': body.length, Connection: 'close' },
  });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => {
        text += c;
      });
      res.on('end', () => resolve({ status: res.statusCode!, body: text }));
    });
  });
  req.write(body.subarray(0, 10));
  return { finish: () => req.end(body.subarray(10)), response };
}

/** How the process exited, with the end of what it printed when that was not 0 (so a failure says why). */
async function exitOf(p: ShipgateProcess) {
  const exit = await p.exited;
  return exit.code === 0 ? exit : { ...exit, output: p.output().slice(-3000) };
}

describe('shipgate serve (the real entry point, embedded PostgreSQL)', () => {
  it('starts on a free port, drains an in-flight request on SIGTERM, exits 0 and stops PostgreSQL', async () => {
    const url = await start();
    const first = await post(`${url}/api/v1/auth/register`, { email: 'first@example.com', name: 'First', password });
    expect(first.status).toBe(201);
    expect(((await first.json()) as Json).role).toBe('ADMIN');

    const postgresPid = Number(fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    expect(processAlive(postgresPid)).toBe(true);

    const inFlight = slowRegister(url, 'inflight@example.com');
    await new Promise((r) => setTimeout(r, 300)); // let the server take the request before the signal
    running!.child.kill('SIGTERM');
    await running!.printed('shutting down');
    inFlight.finish();
    const answered = await inFlight.response;
    expect(answered.status).toBe(201);

    const exit = await running!.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(processAlive(postgresPid)).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  });

  it('starts again on the same data dir with the same users', async () => {
    const before = await start();
    for (const email of ['first@example.com', 'second@example.com']) {
      expect((await post(`${before}/api/v1/auth/register`, { email, name: 'Kept', password })).status).toBe(201);
    }
    running!.child.kill('SIGTERM');
    expect(await exitOf(running!)).toEqual({ code: 0, signal: null });

    const url = await start();
    for (const email of ['first@example.com', 'second@example.com']) {
      const login = await post(`${url}/api/v1/auth/login`, { email, password });
      expect(login.status).toBe(200);
      const me = await fetch(`${url}/api/v1/auth/me`, { headers: { Authorization: `Bearer ${((await login.json()) as Json).api_key}` } });
      expect(((await me.json()) as Json).email).toBe(email);
    }
    // Headers Node refuses itself are answered {detail} too (server/answer-client-error.ts), not with an empty body.
    const huge = await fetch(`${url}/api/v1/auth/me`, { headers: { Authorization: `Bearer sg_${'a'.repeat(100_000)}` } });
    expect([huge.status, huge.headers.get('content-type'), await huge.json()]).toEqual([
      431,
      'application/json',
      { detail: 'The request headers exceed 16 KiB.' },
    ]);
    running!.child.kill('SIGTERM');
    expect(await exitOf(running!)).toEqual({ code: 0, signal: null });
  });
});

describe('start-up with a bad configuration', () => {
  it.each([
    ['PORT', 'abc'],
    ['SHIPGATE_REGISTRATION', 'maybe'],
    ['SHIPGATE_RATE_LIMIT_PER_MINUTE', '-1'],
  ])('exits non-zero naming %s=%s', async (name, value) => {
    running = runShipgate(['serve'], { SHIPGATE_DATA_DIR: dataDir, [name]: value });
    const exit = await running.exited;
    expect(exit.code).not.toBe(0);
    expect(exit.code).not.toBeNull();
    expect(running.output()).toContain(`${name}:`);
    expect(running.output()).toContain('Invalid configuration');
  });

  it('refuses to start in production without a signing key, naming it', async () => {
    running = runShipgate(['serve'], { SHIPGATE_DATA_DIR: dataDir, NODE_ENV: 'production', WEBHOOK_SECRET: 'x'.repeat(20) });
    expect((await running.exited).code).toBe(1);
    expect(running.output()).toContain('SHIPGATE_SIGNING_KEY');
  });

  it('answers an unknown command with the usage and exit code 2', async () => {
    running = runShipgate(['frobnicate'], { SHIPGATE_DATA_DIR: dataDir });
    expect((await running.exited).code).toBe(2);
    expect(running.output()).toMatch(/Unknown command: frobnicate[\s\S]*Usage: shipgate <command>[\s\S]*serve/);
  });
});
