import type { AuthorshipBlock } from '../../core/release/authorship.js';
import type { RuleOutcome } from '../../core/release/rule-outcome.js';
import { utf8Bytes } from '../../core/github/fit-to-bytes.js';
import { CHECK_RUN_SUMMARY_MAX_BYTES, COMMENT_BODY_MAX_BYTES } from '../../core/github/github-limits.js';
import { checkRunContent, commentBody, type DecisionView } from '../../core/github/release-check-content.js';

const sha = (n: number) => n.toString(16).padStart(40, 'a');
const URL = 'https://shipgate.example';

function view(authorship: Partial<AuthorshipBlock>): DecisionView {
  return {
    decision: 'NO_SHIP',
    repo_root: 'acme/app',
    commit_sha: sha(1),
    blockers: [],
    baseline: null,
    context: null,
    config_problems: [],
    authorship: { status: 'read', pull_request: 7, agent_authored: false, agents: [], commits: [], approvals: [], ...authorship },
  };
}

const sre: RuleOutcome = {
  name: 'infra needs SRE',
  met: false,
  triggered_by: ['infra/main.tf', 'infra/vars.tf'],
  missing: 'needs 2 approvals from acme/sre; has 1: @ana',
  disapproved_by: ['bob'],
  approvals: [{ login: 'ana', counted: true, reason: null }],
};
const docs: RuleOutcome = { name: 'docs | owners', met: true, triggered_by: [], missing: null, disapproved_by: [], approvals: [] };

describe('the rules that applied, in the check run and the PR comment', () => {
  it('names each applying rule, met or not, with what is missing and the files that triggered it, and counts the changed files', () => {
    const v = view({ changed_files: { count: 3000, paths: ['infra/main.tf'], status: 'read' }, rules: [sre, docs] });
    for (const text of [checkRunContent(v, URL).output.summary, commentBody(v, URL)]) {
      expect(text).toContain('**Rules**');
      expect(text).toContain('It changes 3,000 files.');
      // Quoted (docs/github-app.md, "Quoting outside text"): the logins named, not notified; the paths in no code span.
      expect(text).toContain(
        '| infra needs SRE | **not met** | needs 2 approvals from acme/sre; has 1: @\u200Bana; changes requested by @\u200Bbob | infra/main\\.tf, infra/vars\\.tf |',
      );
      // A pipe in a rule's name must not split the table's row.
      expect(text).toContain('| docs \\| owners | met | — | — |');
    }
  });

  it('says why the files are unknown, and that no rule applied', () => {
    const text = checkRunContent(view({ changed_files: { count: null, paths: [], status: 'unreadable' }, rules: [] }), URL).output.summary;
    expect(text).toContain('Its changed files could not be read from GitHub (see the blockers).');
    expect(text).toContain('No rule of the gate applies to this pull request.');
  });

  it('shows no section for a decision that judged no rules', () => {
    expect(checkRunContent(view({}), URL).output.summary).not.toContain('**Rules**');
  });

  it('fits GitHub’s limits with a hundred rules of thousands of files, counting the rules it leaves out', () => {
    const rule = (i: number): RuleOutcome => ({
      ...sre,
      name: `rule ${i} ${'Ünïcode '.repeat(100)}`,
      triggered_by: Array.from({ length: 20 }, (_, j) => `infra/${'deep/'.repeat(30)}${j}.tf`),
      missing: `needs approvals ${'x'.repeat(2000)}`,
    });
    const v = view({ changed_files: { count: 3000, paths: [], status: 'read' }, rules: Array.from({ length: 100 }, (_, i) => rule(i)) });
    const summary = checkRunContent(v, URL).output.summary;
    const body = commentBody(v, URL);
    expect(utf8Bytes(summary)).toBeLessThanOrEqual(CHECK_RUN_SUMMARY_MAX_BYTES);
    expect(utf8Bytes(body)).toBeLessThanOrEqual(COMMENT_BODY_MAX_BYTES);
    for (const text of [summary, body]) {
      expect(text).toMatch(
        /… and \d+ more rules not shown here: \[the full decision\]\(https:\/\/shipgate\.example\/studio#\/releases\/acme\/app\//,
      );
      expect(text).toContain('and 15 more |');
      expect(text).toContain('[View the decision]');
    }
  });
});
