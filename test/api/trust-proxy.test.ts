import { clientAddressOf } from '../../api/middleware/client-address.js';
import { loadConfig } from '../../server/load-config.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const LIMIT = '3';
const apps: TestApp[] = [];

afterAll(async () => {
  await Promise.all(apps.map((t) => t.close()));
});

async function app(env: Record<string, string>): Promise<TestApp> {
  const t = await createTestApp({ SHIPGATE_RATE_LIMIT_PER_MINUTE: LIMIT, ...env });
  apps.push(t);
  return t;
}

/** One login attempt (a wrong password) as seen through a proxy that forwarded `client`. */
async function login(t: TestApp, client: string): Promise<number> {
  const res = await t.request
    .post('/api/v1/auth/login')
    .set('X-Forwarded-For', client)
    .send({ email: 'nobody@example.com', password: 'not the password' });
  return res.status;
}

/**
 * The limiter counts in fixed one-minute windows (db/stores/accounts/postgres-rate-limiter.ts), so a sequence of
 * logins that must share one starts with at least 5 s of its window left.
 */
async function atWindowStart(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 5_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/** Uses up `client`'s logins for this window; what follows it must come within the same window. */
async function exhaust(t: TestApp, client: string): Promise<void> {
  await atWindowStart();
  for (let i = 0; i < Number(LIMIT); i++) expect(await login(t, client)).toBe(401);
  expect(await login(t, client)).toBe(429);
}

describe('SHIPGATE_TRUST_PROXY', () => {
  it('unset: X-Forwarded-For is ignored; every caller behind the same peer shares its login limit', async () => {
    const t = await app({});
    await exhaust(t, '203.0.113.1');
    expect(await login(t, '203.0.113.2')).toBe(429);
    expect(t.logs.text()).not.toContain('203.0.113');
  });

  it('a hop count: the login throttle counts per forwarded client, and the log names that client', async () => {
    const t = await app({ SHIPGATE_TRUST_PROXY: '1' });
    await exhaust(t, '203.0.113.1');
    expect(await login(t, '203.0.113.2')).toBe(401);
    // A client cannot dodge the limit by writing its own header: the proxy appends the real address.
    expect(await login(t, '198.51.100.7, 203.0.113.1')).toBe(429);
    const lines = t.logs.lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request' && l.path === '/api/v1/auth/login');
    expect(lines.map((l) => l.ip)).toContain('203.0.113.2');
  });

  it('a list of proxy addresses and CIDR blocks: only their X-Forwarded-For counts', async () => {
    const t = await app({ SHIPGATE_TRUST_PROXY: '10.0.0.0/8, 127.0.0.1, ::1' });
    await exhaust(t, '203.0.113.1, 10.1.2.3');
    expect(await login(t, '203.0.113.2, 10.1.2.3')).toBe(401);
    const untrusted = await app({ SHIPGATE_TRUST_PROXY: '10.0.0.0/8' }); // the test client (127.0.0.1) is not a trusted proxy
    await exhaust(untrusted, '203.0.113.1');
    expect(await login(untrusted, '203.0.113.2')).toBe(429);
  });
});

describe('the client address behind proxies', () => {
  it('walks X-Forwarded-For from the right past trusted hops only', () => {
    const list = { proxies: ['10.0.0.0/8', '192.0.2.1'] };
    expect(clientAddressOf('::ffff:10.0.0.5', '198.51.100.9, 203.0.113.4, 192.0.2.1', list)).toBe('203.0.113.4');
    expect(clientAddressOf('203.0.113.8', '198.51.100.9', list)).toBe('203.0.113.8'); // peer not a proxy: header ignored
    expect(clientAddressOf('10.0.0.5', 'not-an-ip, 10.0.0.6', list)).toBe('10.0.0.6');
    expect(clientAddressOf('10.0.0.5', '', { hops: 2 })).toBe('10.0.0.5');
    expect(clientAddressOf('10.0.0.5', '198.51.100.9, 203.0.113.4, 10.0.0.9', { hops: 2 })).toBe('203.0.113.4');
    expect(clientAddressOf('10.0.0.5', '198.51.100.9', undefined)).toBe('10.0.0.5');
  });

  it('rejects a setting that is neither a hop count nor addresses', () => {
    expect(() => loadConfig({ SHIPGATE_TRUST_PROXY: 'yes please' })).toThrow(/SHIPGATE_TRUST_PROXY/);
    expect(() => loadConfig({ SHIPGATE_TRUST_PROXY: '10.0.0.0/33' })).toThrow(/SHIPGATE_TRUST_PROXY/);
    expect(loadConfig({ SHIPGATE_TRUST_PROXY: '2' }).trustProxy).toEqual({ hops: 2 });
    expect(loadConfig({}).trustProxy).toBeUndefined();
  });
});
