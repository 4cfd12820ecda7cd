import { DECISION, KEY, useHostileShipgate } from './support/hostile-shipgate.js';
import { type ActionRun } from './support/run-action.js';
import { blocker, decision, json } from './support/fake-shipgate.js';

// Server text in the log (a black-box probe's findings): a blocker's reason or an error's detail
// carrying a newline and "::warning::" must not become a workflow command; long text is cut.

const hostile = useHostileShipgate();

const { gate } = hostile;

describe('server text cannot start a workflow command, and is cut to a bound', () => {
  const INJECTED = 'boom\n::warning::pwned\r::set-output name=decision::SHIP\n::add-mask::pwned\u2028::error::pwned';
  /** Lines that begin a workflow command other than the step's own failure and the key's mask. */
  const commands = (run: ActionRun) =>
    run.log.split('\n').filter((line) => /^::/.test(line) && !line.startsWith('::error::') && line !== `::add-mask::${KEY}`);

  it("in a blocker's reason and remediation, and in the decision's link", async () => {
    hostile.fake.answers[DECISION] = json(
      decision({
        decision: 'NO_SHIP',
        blockers: [blocker({ reason: INJECTED, remediation_suggestion: INJECTED, component: INJECTED, code: 'x\n::warning::pwned' })],
        decision_url: `https://gate.example/studio#/x\n::warning::pwned`,
      }),
    );
    const run = await gate({ 'fail-on-no-ship': 'false' });
    expect(run.code).toBe(0);
    expect(commands(run)).toEqual([expect.stringMatching(/^::warning::shipgate decided NO_SHIP/)]);
    expect(run.log).toContain(
      '  blocker x ::warning::pwned [boom ::warning::pwned ::set-output name=decision::SHIP ::add-mask::pwned ::error::pwned]',
    );
    expect(run.outputs.decision).toBe('NO_SHIP');
  });

  it('in the detail of a refusal and of a retried failure', async () => {
    let n = 0;
    hostile.fake.answers[DECISION] = (req, res) => json({ detail: INJECTED }, ++n === 1 ? 503 : 403)(req, res);
    const run = await gate();
    expect(run.code).toBe(1);
    expect(commands(run)).toEqual([]);
    expect(run.log).toContain('shipgate answered 503: boom ::warning::pwned ::set-output name=decision::SHIP');
  });

  it('a reason of 100,000 characters is cut', async () => {
    hostile.fake.answers[DECISION] = json(decision({ decision: 'NO_SHIP', blockers: [blocker({ reason: 'r'.repeat(100_000) })] }));
    const run = await gate();
    expect(run.code).toBe(1);
    const line = run.log.split('\n').find((l) => l.startsWith('  blocker required_check_failed'));
    expect(line!.length).toBeLessThan(2_500);
    expect(line).toContain('r…');
  });
});
