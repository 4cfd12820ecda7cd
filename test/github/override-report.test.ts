import { checkRunContent, commentBody, type DecisionView } from '../../core/github/release-check-content.js';

// docs/release-gate.md, "Overrides": a SHIP an override made possible says so on GitHub.
const view = (over: Partial<DecisionView> = {}): DecisionView => ({
  decision: 'SHIP',
  repo_root: 'acme/api',
  commit_sha: 'a'.repeat(40),
  blockers: [],
  baseline: null,
  context: null,
  config_problems: [],
  ...over,
});

describe('the check run and the comment name an override', () => {
  const reason = 'Outage fix: the build check is flaky on the runner.';

  it('says "SHIP (override by @ana: <reason>)" in the check run title, its summary and the pull request comment', () => {
    const overridden = view({ overridden: [{ by: 'ana', reason }] });
    const content = checkRunContent(overridden, 'https://shipgate.example');
    // The title is plain text on GitHub; the summary and the comment quote the login and the reason (docs/github-app.md,
    // "Quoting outside text"): the overrider is named, not notified.
    const quoted = 'Outage fix: the build check is flaky on the runner\\.';
    expect(content.output.title).toBe(`SHIP (override by @ana: ${reason})`);
    expect(content.output.summary).toContain(`**Decision: SHIP (override by @\u200Bana: ${quoted})**`);
    expect(commentBody(overridden, 'https://shipgate.example')).toContain(
      `### shipgate release gate: SHIP (override by @\u200Bana: ${quoted})`,
    );
  });

  it('a SHIP without an override stays plain SHIP', () => {
    expect(checkRunContent(view(), 'https://shipgate.example').output.title).toBe('SHIP');
  });
});
