import type { JunitSummary, SarifSummary } from '../../core/evidence-content/evidence-summary.js';
import { requiredEvidenceEntrySchema } from '../../core/evidence-content/evidence-rules.js';
import { judgeEvidenceContent } from '../../core/evidence-content/judge-evidence-content.js';
import { summaryOf } from './support/evidence-fixtures.js';

const SHA = 'a'.repeat(40);
const entry = (value: unknown) => requiredEvidenceEntrySchema.parse(value);
const junit = (fields: Partial<JunitSummary>): JunitSummary => ({
  format: 'junit',
  total: 412,
  failed: 0,
  errored: 0,
  skipped: 0,
  failing: [],
  ...fields,
});
const sarif = (fields: Partial<SarifSummary>): SarifSummary => ({
  format: 'sarif',
  results: 0,
  by_level: { error: 0, warning: 0, note: 0, none: 0 },
  by_rule: [],
  truncated: false,
  suppressed: 0,
  ...fields,
});

describe('tests rules', () => {
  const threeFailed = junit({ failed: 3, failing: ['a', 'b', 'c'] });

  it('max_failed: names the failing tests', () => {
    const [result] = judgeEvidenceContent(threeFailed, entry({ name: 'tests', format: 'junit', rules: { max_failed: 0 } }), SHA);
    expect(result).toEqual({
      rule: 'max_failed',
      passed: false,
      detail: '3 of 412 tests failed: a, b, c',
      remediation: expect.stringContaining('Fix the failing tests'),
    });
  });

  it('max_failed counts errored tests, says how many are not named, and what is allowed', () => {
    const summary = junit({ failed: 20, errored: 5, failing: Array.from({ length: 20 }, (_, i) => `t${i}`) });
    const [result] = judgeEvidenceContent(summary, entry({ name: 'tests', format: 'junit', rules: { max_failed: 24 } }), SHA);
    expect(result.passed).toBe(false);
    expect(result.detail).toBe(
      `25 of 412 tests failed (5 with errors); at most 24 allowed: ${Array.from({ length: 20 }, (_, i) => `t${i}`).join(', ')} and 5 more`,
    );
    const [within] = judgeEvidenceContent(summary, entry({ name: 'tests', format: 'junit', rules: { max_failed: 25 } }), SHA);
    expect(within.passed).toBe(true);
  });

  it('the default rule (plain name, or a format without rules) is no failed or errored test', () => {
    for (const e of [null, entry('tests'), entry({ name: 'tests' }), entry({ name: 'tests', format: 'junit' })]) {
      expect(judgeEvidenceContent(threeFailed, e, SHA)).toEqual([expect.objectContaining({ rule: 'max_failed', passed: false })]);
      expect(judgeEvidenceContent(junit({ errored: 1, failing: ['x'] }), e, SHA)[0].passed).toBe(false);
      expect(judgeEvidenceContent(junit({ skipped: 3 }), e, SHA)).toEqual([
        expect.objectContaining({ rule: 'max_failed', passed: true, detail: '0 of 412 tests failed' }),
      ]);
    }
  });

  it('min_total', () => {
    const rules = { name: 'tests', format: 'junit', rules: { min_total: 413 } };
    const results = judgeEvidenceContent(junit({}), entry(rules), SHA);
    expect(results).toEqual([
      expect.objectContaining({ rule: 'max_failed', passed: true }),
      expect.objectContaining({ rule: 'min_total', passed: false, detail: 'The report holds 412 tests; the gate needs at least 413.' }),
    ]);
    expect(judgeEvidenceContent(junit({ total: 413 }), entry(rules), SHA)[1].passed).toBe(true);
    expect(judgeEvidenceContent(junit({ total: 1 }), entry({ name: 't', format: 'junit', rules: { min_total: 1 } }), SHA)[1].detail).toBe(
      'The report holds 1 test; the gate needs at least 1.',
    );
  });

  it('judges both producers’ real reports the same way', async () => {
    const rule = entry({ name: 'tests', format: 'junit', rules: { max_failed: 0 } });
    const jest = judgeEvidenceContent(await summaryOf('jest-junit-failing.xml'), rule, SHA)[0];
    expect(jest.detail).toBe('3 of 9 tests failed: Cart removes an item, Cart applies a discount code, Checkout retries a declined card');
    const surefire = judgeEvidenceContent(await summaryOf('surefire-failing.xml'), rule, SHA)[0];
    expect(surefire.passed).toBe(false);
    expect(surefire.detail).toMatch(/^3 of 6 tests failed \(1 with errors\): com\.acme\.billing\.InvoiceServiceTest\.roundsHalfEven/);
    for (const passing of ['jest-junit-passing.xml', 'surefire-passing.xml']) {
      expect(judgeEvidenceContent(await summaryOf(passing), rule, SHA)[0].passed).toBe(true);
    }
  });
});

describe('SARIF rules', () => {
  const mixed = sarif({
    results: 6,
    by_level: { error: 2, warning: 3, note: 1, none: 0 },
    by_rule: [
      { rule_id: 'js/sql-injection', level: 'error', count: 1 },
      { rule_id: 'js/xss', level: 'error', count: 1 },
      { rule_id: 'js/missing-rate-limiting', level: 'warning', count: 3 },
      { rule_id: 'js/unused', level: 'note', count: 1 },
    ],
  });

  it('the default rule blocks on any error result', () => {
    const [result] = judgeEvidenceContent(mixed, entry('scan'), SHA);
    expect(result).toEqual({
      rule: 'max_level',
      passed: false,
      detail: '2 results at level error: js/sql-injection (error) ×1, js/xss (error) ×1.',
      remediation: expect.stringContaining('ignore_rules'),
    });
    expect(judgeEvidenceContent(sarif({ by_level: { error: 0, warning: 9, note: 9, none: 9 } }), null, SHA)[0]).toMatchObject({
      passed: true,
      detail: 'No result at level error.',
    });
  });

  it('max_level note blocks on warnings too; none on notes too', () => {
    const note = judgeEvidenceContent(mixed, entry({ name: 's', format: 'sarif', rules: { max_level: 'note' } }), SHA)[0];
    expect(note.detail).toMatch(/^5 results at level error or warning: /);
    const none = judgeEvidenceContent(mixed, entry({ name: 's', format: 'sarif', rules: { max_level: 'none' } }), SHA)[0];
    expect(none.detail).toMatch(/^6 results at level error, warning or note: .*js\/unused \(note\) ×1\.$/);
  });

  it('ignore_rules drops an ignored rule’s results', () => {
    const rules = (ignore: string[]) => entry({ name: 's', format: 'sarif', rules: { ignore_rules: ignore } });
    expect(judgeEvidenceContent(mixed, rules(['js/sql-injection']), SHA)[0]).toMatchObject({
      passed: false,
      detail: '1 result at level error (1 result of ignored rules not counted): js/xss (error) ×1.',
    });
    expect(judgeEvidenceContent(mixed, rules(['js/sql-injection', 'js/xss']), SHA)[0]).toMatchObject({
      passed: true,
      detail: 'No result at level error (2 results of ignored rules not counted).',
    });
  });

  it('fails closed when per-rule counts were truncated and an ignored rule’s count did not fit', () => {
    const truncated = sarif({ by_level: { error: 1, warning: 0, note: 0, none: 0 }, by_rule: [], truncated: true });
    const [result] = judgeEvidenceContent(truncated, entry({ name: 's', format: 'sarif', rules: { ignore_rules: ['r'] } }), SHA);
    expect(result).toMatchObject({ passed: false, detail: '1 result at level error (per-rule counts truncated).' });
  });

  it('blocks the CodeQL log with one error by default, and passes it with that rule ignored', async () => {
    const log = await summaryOf('codeql-one-error.sarif');
    expect(judgeEvidenceContent(log, entry('code-scanning'), SHA)[0].passed).toBe(false);
    const ignoring = entry({ name: 'code-scanning', format: 'sarif', rules: { ignore_rules: ['js/sql-injection'] } });
    expect(judgeEvidenceContent(log, ignoring, SHA)[0].passed).toBe(true);
  });
});

describe('documents and formats', () => {
  it('a plain name without a document is judged by status alone', () => {
    expect(judgeEvidenceContent(null, entry('tests'), SHA)).toEqual([]);
    expect(judgeEvidenceContent(null, null, SHA)).toEqual([]);
  });

  it('an entry with a format needs a document of that format', () => {
    expect(judgeEvidenceContent(null, entry({ name: 'tests', format: 'junit', rules: {} }), SHA)).toEqual([
      {
        rule: 'document',
        passed: false,
        detail: 'No document was uploaded with this evidence; the gate reads a JUnit XML test report.',
        remediation: expect.stringContaining('evidence-file'),
      },
    ]);
    expect(judgeEvidenceContent(sarif({}), entry({ name: 'tests', format: 'junit' }), SHA)).toEqual([
      expect.objectContaining({
        rule: 'format',
        passed: false,
        detail: 'The document is a SARIF 2.1.0 log; the gate reads a JUnit XML test report.',
      }),
    ]);
  });
});
