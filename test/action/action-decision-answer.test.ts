import { DECISION, failure, KEY, useHostileShipgate } from './support/hostile-shipgate.js';
import { printed, runAction } from './support/run-action.js';
import { blocker, decision, json, REPO, text } from './support/fake-shipgate.js';

// The bundled Action against a fake "shipgate" answering decisions it never would (a black-box
// probe's findings): only a well-formed SHIP for the repository and commit asked about passes;
// anything else fails the step, naming what was wrong, and sets no output.
const SESSIONS = 'POST /api/v1/agent-sessions';

const hostile = useHostileShipgate();

const { gate } = hostile;

describe('a SHIP that is not a well-formed SHIP for the commit asked about fails the step, with no outputs', () => {
  it('a well-formed SHIP passes (the control)', async () => {
    hostile.fake.answers[DECISION] = json(decision());
    const run = await gate();
    expect([run.code, run.outputs.decision, run.outputs['snapshot-id']]).toEqual([0, 'SHIP', decision().snapshot_id]);
  });

  it('SHIP with blockers', async () => {
    hostile.fake.answers[DECISION] = json(decision({ blockers: [blocker()] }));
    const run = await gate();
    expect([run.code, run.outputs]).toEqual([1, {}]);
    expect(failure(run)).toEqual([
      expect.stringContaining('shipgate answered a contradictory decision for acme/api@0123456789ab: SHIP with 1 blocker'),
    ]);
  });

  it('NO_SHIP without blockers', async () => {
    hostile.fake.answers[DECISION] = json(decision({ decision: 'NO_SHIP' }));
    const run = await gate({ 'fail-on-no-ship': 'false' });
    expect([run.code, run.outputs]).toEqual([1, {}]);
    expect(failure(run)).toEqual([expect.stringContaining('contradictory decision for acme/api@0123456789ab: NO_SHIP without a blocker')]);
  });

  it('a SHIP for another repository or commit', async () => {
    hostile.fake.answers[DECISION] = json(decision({ repo_root: 'evil/other', commit_sha: 'f'.repeat(40) }));
    const run = await gate();
    expect([run.code, run.outputs]).toEqual([1, {}]);
    expect(failure(run)).toEqual([
      expect.stringContaining('shipgate answered a decision for evil/other@ffffffffffff, not acme/api@0123456789ab'),
    ]);
    hostile.fake.answers[DECISION] = json(decision({ commit_sha: 'f'.repeat(40) }));
    const otherCommit = await gate();
    expect([otherCommit.code, otherCommit.outputs]).toEqual([1, {}]);
    expect(failure(otherCommit)).toEqual([
      expect.stringContaining('shipgate answered a decision for acme/api@ffffffffffff, not acme/api@0123456789ab'),
    ]);
  });

  it('a SHIP lacking repo_root, commit_sha, snapshot_id and decision_url', async () => {
    hostile.fake.answers[DECISION] = json({ decision: 'SHIP', blockers: [] });
    const run = await gate();
    expect([run.code, run.outputs]).toEqual([1, {}]);
    expect(run.log).not.toContain('undefined');
    expect(failure(run)).toEqual([
      expect.stringContaining(
        'shipgate answered something that is not a decision to read the release decision of acme/api: ' +
          'repo_root is missing; commit_sha is missing; snapshot_id is missing; decision_url is missing',
      ),
    ]);
  });

  it('fields of the wrong kind: a decision that is neither SHIP nor NO_SHIP, a blocker that is not one, a link that is not http(s)', async () => {
    hostile.fake.answers[DECISION] = json(decision({ decision: 'ship', snapshot_id: 'x', decision_url: 'javascript:alert(1)' }));
    const wrong = await gate();
    expect([wrong.code, wrong.outputs]).toEqual([1, {}]);
    expect(failure(wrong)).toEqual([
      expect.stringContaining(
        'decision is "ship", not SHIP or NO_SHIP; snapshot_id is "x", not a UUID; decision_url is "javascript:alert(1)", not an http(s) URL',
      ),
    ]);
    hostile.fake.answers[DECISION] = json(decision({ decision: 'NO_SHIP', blockers: [blocker({ waitable: 'no' }), 'x'] }));
    const blockers = await gate();
    expect([blockers.code, blockers.outputs]).toEqual([1, {}]);
    expect(failure(blockers)).toEqual([
      expect.stringContaining('blockers[0].waitable is "no", not true or false; blockers[1] is not an object'),
    ]);
    // The outputs came before the crash: a later step reading steps.gate.outputs.decision saw SHIP.
    hostile.fake.answers[DECISION] = json(decision({ blockers: null }));
    const nullBlockers = await gate();
    expect([nullBlockers.code, nullBlockers.outputs]).toEqual([1, {}]);
    expect(failure(nullBlockers)).toEqual([expect.stringContaining('blockers is null, not a list')]);
  });
});

describe('an answer that is not a decision at all fails the step saying what it was', () => {
  const cases: [string, () => void, string][] = [
    [
      'an HTML page',
      () => (hostile.fake.answers[DECISION] = text('<!doctype html><html><body>Welcome to nginx!</body></html>')),
      'not JSON: "<!doctype html><html><body>Welcome to nginx!</body></html>"',
    ],
    ['garbage', () => (hostile.fake.answers[DECISION] = text('\u0000\u0001garbage', 200, 'application/json')), 'not JSON: "  garbage"'],
    ['{}', () => (hostile.fake.answers[DECISION] = json({})), 'decision is missing; repo_root is missing'],
    ['[]', () => (hostile.fake.answers[DECISION] = json([])), 'a JSON array, not an object'],
    ['null', () => (hostile.fake.answers[DECISION] = json(null)), 'JSON null, not an object'],
    ['an empty body', () => (hostile.fake.answers[DECISION] = json(undefined)), 'an empty body'],
  ];
  it.each(cases)('%s', async (_name, answer, what) => {
    answer();
    const run = await gate();
    expect([run.code, run.outputs]).toEqual([1, {}]);
    expect(run.log).not.toMatch(/TypeError|Unexpected error/);
    expect(failure(run)).toEqual([
      expect.stringContaining(
        `::error::shipgate answered something that is not a decision to read the release decision of acme/api: ${what}`,
      ),
    ]);
  });

  it('a refusal whose detail is an object: its JSON, not [object Object]', async () => {
    hostile.fake.answers[DECISION] = json({ detail: { message: { why: 'teapot' }, code: 418 } }, 418);
    const run = await gate();
    expect(run.code).toBe(1);
    expect(failure(run)).toEqual([
      '::error::shipgate answered 418 to read the release decision of acme/api: {"message":{"why":"teapot"},"code":418}',
    ]);
    hostile.fake.answers[DECISION] = json({ detail: [{ loc: 'query', msg: 7 }, 'plain'] }, 422);
    const list = await gate();
    expect(failure(list)).toEqual([
      expect.stringContaining(
        '::error::shipgate rejected the request to read the release decision of acme/api (422): {"loc":"query","msg":7}; plain',
      ),
    ]);
  });
});

describe('a session answer that is not one fails the step clearly', () => {
  it('refuses a session answer that is not one, clearly', async () => {
    hostile.fake.answers[SESSIONS] = json({ id: '../../releases/decision', token: 7 }, 201);
    const run = await runAction({ 'api-url': hostile.fake.url, 'api-key': KEY, repository: REPO, mode: 'session', servers: 'github' });
    expect([run.code, run.outputs, run.exported]).toEqual([1, {}, {}]);
    expect(failure(run)).toEqual([
      expect.stringContaining(
        `::error::shipgate answered something that is not an agent session to open an agent session for ${REPO}: ` +
          'id is "../../releases/decision", not a UUID; execution_id is missing; mcp_url is missing; token is 7, not a string',
      ),
    ]);
    expect(printed(run, KEY)).toEqual([]);
  });
});
