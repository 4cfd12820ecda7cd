import { loginClientOf } from '../../core/accounts/login-client.js';
import { LOGIN_THROTTLE, loginRetryAfter } from '../../core/accounts/login-throttle.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const password = 'correct horse battery';
const wrong = 'not the password';

let t: TestApp;
beforeAll(async () => {
  // One proxy in front: each request says which client it comes from in X-Forwarded-For.
  t = await createTestApp({ SHIPGATE_TRUST_PROXY: '1' });
});
afterAll(async () => {
  await t.close();
});

let accounts = 0;
async function owner(): Promise<string> {
  const email = `owner${++accounts}@example.com`;
  await t.request.post('/api/v1/auth/register').send({ email, name: 'Owner', password }).expect(201);
  return email;
}

function logIn(from: string, email: string, secret: string) {
  return t.request.post('/api/v1/auth/login').set('X-Forwarded-For', from).send({ email, password: secret });
}

/** `count` failures of `client` on `email`, `secondsAgo` ago (the newest last), as the store records them. */
async function failed(client: string, email: string | ((i: number) => string), count: number, secondsAgo = 0): Promise<void> {
  const rows = Array.from({ length: count }, (_, i) => ({
    client,
    email: typeof email === 'string' ? email : email(i),
    failed_at: t.database.db.raw(`clock_timestamp() - make_interval(secs => ?)`, [secondsAgo]),
  }));
  await t.database.db('login_failures').insert(rows);
}

describe('login throttling slows the attacker, not the owner', () => {
  it("refuses the attacker's address after 5 failures, even with the right password, while the owner logs in from elsewhere", async () => {
    const email = await owner();
    for (let i = 0; i < LOGIN_THROTTLE.freePerAccount; i++) expect((await logIn('198.51.100.10', email, wrong)).status).toBe(401);
    // Within 1 s of the fifth failure (measured: a few milliseconds), the address must wait.
    const refused = await logIn('198.51.100.10', email, password);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ detail: 'Too many failed logins from this address; try again later.' });
    expect(Number(refused.headers['retry-after'])).toBe(1);
    // The owner, from another address, is not refused, and may even mistype first.
    expect((await logIn('203.0.113.20', email, wrong)).status).toBe(401);
    const owners = await logIn('203.0.113.20', email, password);
    expect(owners.status).toBe(200);
    await t.request.get('/api/v1/auth/me').set('Authorization', `Bearer ${owners.body.api_key}`).expect(200);
  });

  it("makes the attacker's address wait twice as long after each further failure, up to 15 minutes", async () => {
    const email = await owner();
    const waits: number[] = [];
    for (const [client, failures] of [
      ['198.51.100.21', 6],
      ['198.51.100.22', 8],
      ['198.51.100.23', 10],
      ['198.51.100.24', 14],
      ['198.51.100.25', 40],
    ] as const) {
      await failed(client, email, failures);
      const res = await logIn(client, email, password);
      expect([client, res.status]).toEqual([client, 429]);
      waits.push(Number(res.headers['retry-after']));
    }
    // 2, 8, 32 and 512 seconds, then the 15-minute ceiling; a few seconds' margin for a slow machine.
    const expected = [2, 8, 32, 512, 900];
    waits.forEach((wait, i) => {
      expect(wait).toBeLessThanOrEqual(expected[i]);
      expect(wait).toBeGreaterThan(expected[i] - 5);
    });
    // Once the wait has passed, the address may try again.
    await failed('198.51.100.26', email, 8, 9);
    expect((await logIn('198.51.100.26', email, password)).status).toBe(200);
  });

  it('slows an address that tries many accounts (30 failures on any e-mails), and not the accounts', async () => {
    const email = await owner();
    await failed('198.51.100.30', (i) => `sprayed${i}@example.com`, LOGIN_THROTTLE.freePerClient);
    const refused = await logIn('198.51.100.30', email, password);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBe(1);
    expect((await logIn('203.0.113.30', email, password)).status).toBe(200);
  });

  it('counts an IPv6 client by its /64, so changing address within it gains nothing', async () => {
    const email = await owner();
    for (let i = 1; i <= LOGIN_THROTTLE.freePerAccount; i++) expect((await logIn(`2001:db8:1:2::${i}`, email, wrong)).status).toBe(401);
    expect((await logIn('2001:db8:1:2:ffff:ffff:ffff:ffff', email, password)).status).toBe(429);
    expect((await logIn('2001:db8:1:3::1', email, password)).status).toBe(200);
  });

  it('counts parallel attempts one after another: 20 at once from one address get no more than 5 tries', async () => {
    const email = await owner();
    const statuses = await Promise.all(Array.from({ length: 20 }, () => logIn('198.51.100.40', email, wrong).then((r) => r.status)));
    const tried = statuses.filter((status) => status === 401).length;
    expect(statuses.filter((status) => status !== 401 && status !== 429)).toEqual([]);
    // Exactly 5 unless the machine took over a second between two of them, which earns one more.
    expect(tried).toBeGreaterThanOrEqual(LOGIN_THROTTLE.freePerAccount);
    expect(tried).toBeLessThanOrEqual(LOGIN_THROTTLE.freePerAccount + 1);
  });

  it("queues one client's attempts in the store, so each counts the failures recorded before it", async () => {
    const seen: number[] = [];
    await Promise.all(
      Array.from({ length: 10 }, () =>
        t.deps.accounts.beginLoginAttempt('198.51.100.41', 'queued@example.com', LOGIN_THROTTLE.windowSeconds, (counts) => {
          seen.push(counts.account.count);
          return 0;
        }),
      ),
    );
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('forgets the address’s failures on the account once the right password gets through', async () => {
    const email = await owner();
    await failed('198.51.100.50', email, 4);
    expect((await logIn('198.51.100.50', email, password)).status).toBe(200);
    expect(await t.database.db('login_failures').where({ client: '198.51.100.50', email }).select('id')).toEqual([]);
  });
});

describe('the throttle rule', () => {
  const tally = (count: number, sinceLastSeconds = 0) => ({ count, sinceLastSeconds });
  it.each([
    [tally(0), tally(0), 0],
    [tally(4), tally(4), 0],
    [tally(5, 0.2), tally(5, 0.2), 1],
    [tally(5, 1), tally(5, 1), 0],
    [tally(9, 3.5), tally(9, 3.5), 13],
    [tally(25), tally(25), 900],
    [tally(0), tally(30), 1],
    [tally(2, 10), tally(33, 10), 0],
    [tally(2, 1), tally(33, 1), 7],
  ])('account %o, client %o: wait %i s', (account, client, wait) => {
    expect(loginRetryAfter({ account, client })).toBe(wait);
  });

  it('counts IPv4 as it is and IPv6 by its /64', () => {
    expect(loginClientOf('203.0.113.9')).toBe('203.0.113.9');
    expect(loginClientOf('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(loginClientOf('2001:DB8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(loginClientOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(loginClientOf('not an address')).toBe('not an address');
  });
});
