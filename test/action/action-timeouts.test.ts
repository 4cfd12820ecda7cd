import type { ServerResponse } from 'node:http';
import { apiKeyCredential } from '../../action/src/credential.js';
import { createClient } from '../../action/src/http-client.js';
import { runAction } from './support/run-action.js';
import { decision, json, REPO, COMMIT, startFakeShipgate, type FakeShipgate } from './support/fake-shipgate.js';

// No answer keeps the Action longer than its timeouts (docs/action.md): each attempt has 30 s for
// the whole answer, headers and body, and a request never takes longer than 2 minutes in all
// (a black-box probe: a server that sent its headers and then a space every 2 s hung the Action
// for 300+ s; a plain hang took 129 s).
let fake: FakeShipgate;
const DECISION = 'GET /api/v1/releases/decision';

beforeAll(async () => {
  fake = await startFakeShipgate();
});
afterAll(async () => {
  await fake.close();
});

/** Sends the headers, then a space every `everyMs` until the client goes away. */
function dribble(res: ServerResponse, everyMs: number) {
  res.writeHead(200, { 'content-type': 'application/json' });
  const timer = setInterval(() => res.write(' '), everyMs);
  res.on('close', () => clearInterval(timer));
}

it('an answer that dribbles in is cut off after 30 s and asked again', async () => {
  fake.requests = [];
  fake.answers[DECISION] = (req, res) => (fake.requests.length === 1 ? dribble(res, 2_000) : json(decision())(req, res));
  const run = await runAction({ 'api-url': fake.url, 'api-key': 'sg_timeouts-test-key', repository: REPO, 'commit-sha': COMMIT });
  expect(run.log).toContain(`no answer within 30s at ${fake.url}; retrying in 1s (attempt 2 of 4).`);
  expect([run.code, run.outputs.decision, fake.requests.length]).toEqual([0, 'SHIP', 2]);
  expect(run.ms).toBeGreaterThanOrEqual(30_000);
  expect(run.ms).toBeLessThan(36_000);
}, 60_000);

describe('the client (shortened timeouts, so the test takes seconds)', () => {
  const client = (timeoutMs: number, budgetMs: number, attempts = 4) =>
    createClient(fake.url, apiKeyCredential('sg_timeouts-test-key'), {
      attempts,
      baseDelayMs: 100,
      maxDelayMs: 1_000,
      timeoutMs,
      budgetMs,
    });
  const timed = async (ask: () => Promise<unknown>) => {
    const started = Date.now();
    const error = await ask().then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    return { error: error?.message, ms: Date.now() - started };
  };

  it('a request that gets no answer ends within its budget, the last attempt cut short', async () => {
    fake.answers[DECISION] = () => undefined; // headers never come
    const { error, ms } = await timed(() => client(2_000, 3_000).get('/releases/decision', {}, 'read the decision'));
    expect(error).toMatch(/^Could not read the decision after 2 attempt\(s\) in 3s: no answer within 0\.\ds at http/);
    expect(ms).toBeGreaterThanOrEqual(2_900);
    expect(ms).toBeLessThan(3_500);
  });
});
