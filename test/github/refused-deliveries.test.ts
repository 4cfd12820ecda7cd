import { checkRunPayload, deliver, pullRequestPayload, settle } from '../support/github-deliveries.js';
import { deliveryRow } from '../support/delivery-outcomes.js';
import { sha } from '../support/release-api.js';
import { useAppWithFakeGitHub } from './support/app-with-fake-github.js';

// A delivery holding what cannot be stored or is refused: a NUL is 422 at once (nothing recorded); a
// value only the job refuses fails its delivery at the first attempt, not five attempts later.

const SECRET = 'refused-deliveries-secret';
const stack = useAppWithFakeGitHub({ secret: SECRET, installationId: 77, gate: 'required_checks: []\n' });
const repo = 'acme/refused-deliveries';

beforeAll(() => stack.repository(repo));

it('refuses a NUL anywhere in the payload with 422 and records nothing (it was queued, then failed five times)', async () => {
  const count = async () => Number((await stack.t.database.db('github_deliveries').count<{ count: string }[]>())[0].count);
  const before = await count();
  const payload = pullRequestPayload('opened', { number: 3, sha: sha('nul-ref') }, repo);
  payload.pull_request.head.ref = 'feature/\u0000x';
  const nul = await deliver(stack.t, 'pull_request', payload, { secret: SECRET });
  expect([nul.status, nul.body.detail]).toEqual([422, [expect.objectContaining({ loc: ['body'], type: 'unstorable_value' })]]);
  const inKey = await deliver(
    stack.t,
    'check_run',
    { ...checkRunPayload('completed', { id: 9, name: 'ci', sha: sha('nul-key') }, repo), 'k\u0000': 1 },
    { secret: SECRET },
  );
  expect(inKey.status).toBe(422);
  expect(await count()).toBe(before);
});

it('fails a delivery the job refuses at its first attempt, with the reason, and retries nothing', async () => {
  const name = 'n'.repeat(300);
  const res = await deliver(stack.t, 'check_run', checkRunPayload('completed', { id: 77, name, sha: sha('long-name') }, repo), {
    secret: SECRET,
    id: 'refused-long-name',
  });
  expect(res.body).toEqual({ status: 'queued' });
  await settle(stack.t);
  expect(await deliveryRow(stack.t, 'refused-long-name')).toMatchObject({
    result: 'failed',
    attempts: 1,
    error: 'name: A check run needs a name of 1-200 characters.',
  });
  const { rows } = await stack.t.database.db.raw(
    "SELECT count(*)::int AS n FROM graphile_worker._private_jobs WHERE payload->>'delivery_id' = 'refused-long-name'",
  );
  expect(rows[0].n).toBe(0);
});
