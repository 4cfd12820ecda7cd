import { startWorker } from '../../worker/start-worker.js';
import { pruneExpiredCounters } from '../../db/prune-expired-counters.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

const ago = (seconds: number) => new Date(Date.now() - seconds * 1000);

async function seed(db: TestApp['database']['db']): Promise<void> {
  await db('rate_limits').insert([
    { bucket: 'key:old', window_start: ago(2 * 3600), count: 5 },
    { bucket: 'key:current', window_start: ago(30), count: 1 },
  ]);
  await db('login_failures').insert([
    { email: 'old@example.com', failed_at: ago(2 * 86400) },
    { email: 'recent@example.com', failed_at: ago(60) },
  ]);
  await db('worker_heartbeats').insert([
    { worker_id: 'gone', seen_at: ago(8 * 86400) },
    { worker_id: 'alive', seen_at: ago(5) },
  ]);
}

async function remaining(db: TestApp['database']['db']) {
  return {
    windows: (await db('rate_limits').select('bucket')).map((r) => r.bucket),
    failures: (await db('login_failures').select('email')).map((r) => r.email),
    workers: (await db('worker_heartbeats').whereIn('worker_id', ['gone', 'alive']).select('worker_id')).map((r) => r.worker_id),
  };
}

describe('pruning expired counters', () => {
  it('deletes expired rate-limit windows, old login failures and long-gone workers, and keeps the live ones', async () => {
    t = await createTestApp();
    await seed(t.database.db);
    await pruneExpiredCounters(t.database.db);
    expect(await remaining(t.database.db)).toEqual({ windows: ['key:current'], failures: ['recent@example.com'], workers: ['alive'] });
  });

  it('is done by a worker on its first heartbeat', async () => {
    t = await createTestApp();
    await seed(t.database.db);
    const worker = await startWorker(t.deps, t.database.url);
    try {
      expect((await remaining(t.database.db)).windows).toEqual(['key:current']);
      expect((await remaining(t.database.db)).failures).toEqual(['recent@example.com']);
    } finally {
      await worker.stop();
    }
  });
});
