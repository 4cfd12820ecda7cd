import { DECISION, failure, useHostileShipgate } from './support/hostile-shipgate.js';
import { decision, json } from './support/fake-shipgate.js';

// How the Action reads shipgate's HTTP answers (a black-box probe's findings): retries after a
// Retry-After it can use, redirects named and not followed, answers over 16 MiB refused at once,
// and no answer that dribbles in keeps it longer than its timeouts.

const hostile = useHostileShipgate();

const { gate } = hostile;

describe('retries and redirects', () => {
  it('a negative Retry-After waits the default backoff', async () => {
    let n = 0;
    hostile.fake.answers[DECISION] = (req, res) =>
      (++n === 1 ? json({ detail: 'busy' }, 429, { 'Retry-After': '-5' }) : json(decision()))(req, res);
    const run = await gate();
    expect(run.log).toContain('shipgate answered 429: busy; retrying in 1s (attempt 2 of 4).');
    expect([run.code, run.outputs.decision]).toEqual([0, 'SHIP']);
    expect(run.ms).toBeGreaterThanOrEqual(1_000);
  });

  it('a redirect is named with its status and target, and not followed or retried', async () => {
    hostile.fake.answers[DECISION] = (_req, res) => {
      res.writeHead(302, { Location: 'https://evil.example/collect' });
      res.end();
    };
    const run = await gate();
    expect(run.code).toBe(1);
    expect(failure(run)).toEqual([
      '::error::shipgate answered 302, a redirect to https://evil.example/collect, to read the release decision of acme/api: ' +
        'the Action follows no redirect. Is api-url the address shipgate answers at (e.g. https rather than http)?',
    ]);
    expect(hostile.fake.requests).toHaveLength(1);
  });

  it('an answer over 16 MiB is refused at once, announced or not', async () => {
    const big = 17 * 1024 * 1024;
    hostile.fake.answers[DECISION] = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(big) });
      res.end(' '.repeat(big));
    };
    const announced = await gate();
    expect(failure(announced)).toEqual([
      '::error::shipgate answered 17,825,792 bytes to read the release decision of acme/api: the Action reads at most 16 MiB (16,777,216 bytes).',
    ]);
    expect(hostile.fake.requests).toHaveLength(1);
    hostile.fake.requests = [];
    hostile.fake.answers[DECISION] = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = ' '.repeat(1024 * 1024);
      let sent = 0;
      const more = () => {
        while (sent < 64 && res.write(chunk)) sent++;
        if (sent < 64) res.once('drain', () => (sent++, more()));
        else res.end();
      };
      res.on('error', () => undefined);
      more();
    };
    const streamed = await gate();
    expect(failure(streamed)).toEqual([
      '::error::shipgate answered more than 16 MiB (16,777,216 bytes) to read the release decision of acme/api: the Action reads no more.',
    ]);
    expect(hostile.fake.requests).toHaveLength(1);
  });
});
