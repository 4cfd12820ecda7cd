import { bytesOf, fixtureJson, refusal, summaryOf } from './support/evidence-fixtures.js';

const log = (results: unknown[], rules: unknown[] = [], extra: Record<string, unknown> = {}) => ({
  version: '2.1.0',
  runs: [{ tool: { driver: { name: 'scanner', rules } }, results, ...extra }],
});
const message = { text: 'm' };

describe('SARIF 2.1.0 logs are counted by level and rule', () => {
  it('reads a CodeQL log with one error result (a suppressed one not counted)', async () => {
    expect(await summaryOf('codeql-one-error.sarif')).toEqual({
      format: 'sarif',
      results: 4,
      by_level: { error: 1, warning: 2, note: 1, none: 0 },
      by_rule: [
        { rule_id: 'js/sql-injection', level: 'error', count: 1 },
        { rule_id: 'js/missing-rate-limiting', level: 'warning', count: 2 },
        { rule_id: 'js/unused-local-variable', level: 'note', count: 1 },
      ],
      truncated: false,
      suppressed: 1,
    });
  });

  it('takes a level from the result, else its rule’s default (by id, in the driver or an extension), else warning', async () => {
    const document = log(
      [
        { ruleId: 'a', level: 'note', message },
        { ruleId: 'a', message },
        { ruleIndex: 1, message },
        { rule: { id: 'ext' }, message },
        { ruleId: 'unknown', message },
        { message },
      ],
      [{ id: 'a', defaultConfiguration: { level: 'error' } }, { id: 'b' }],
    );
    (document.runs[0].tool as Record<string, unknown>).extensions = [
      { name: 'pack', rules: [{ id: 'ext', defaultConfiguration: { level: 'note' } }] },
    ];
    const summary = await summaryOf(document);
    expect(summary).toMatchObject({ results: 6, by_level: { error: 1, warning: 3, note: 2, none: 0 } });
    expect(summary).toHaveProperty('by_rule', [
      { rule_id: 'a', level: 'error', count: 1 },
      { rule_id: '(no rule)', level: 'warning', count: 1 },
      { rule_id: 'b', level: 'warning', count: 1 },
      { rule_id: 'unknown', level: 'warning', count: 1 },
      { rule_id: 'a', level: 'note', count: 1 },
      { rule_id: 'ext', level: 'note', count: 1 },
    ]);
  });

  it('gives a result whose kind is not `fail` level none', async () => {
    const rules = [{ id: 'r', defaultConfiguration: { level: 'error' } }];
    const results = [
      { ruleId: 'r', kind: 'pass', message },
      { ruleId: 'r', kind: 'informational', message },
      { ruleId: 'r', kind: 'fail', message },
    ];
    expect(await summaryOf(log(results, rules))).toMatchObject({ by_level: { error: 1, warning: 0, note: 0, none: 2 } });
  });

  it('does not count suppressed results, nor results a baseline marks absent; a rejected suppression still counts', async () => {
    const summary = await summaryOf(
      log([
        { ruleId: 'r', level: 'error', message, suppressions: [{ kind: 'external', status: 'accepted' }] },
        { ruleId: 'r', level: 'error', message, suppressions: [{ kind: 'external', status: 'rejected' }] },
        { ruleId: 'r', level: 'error', message, suppressions: [{ kind: 'inSource' }, { kind: 'external', status: 'underReview' }] },
        { ruleId: 'r', level: 'error', message, baselineState: 'absent' },
        { ruleId: 'r', level: 'error', message, baselineState: 'new' },
      ]),
    );
    expect(summary).toMatchObject({ results: 3, suppressed: 1, by_level: { error: 3 } });
  });

  it('adds up every run; a run that did not run (results null) counts nothing', async () => {
    const document = log([{ ruleId: 'r', level: 'error', message }]);
    document.runs.push({ tool: { driver: { name: 'other', rules: [] } }, results: null as unknown as [] });
    document.runs.push({ tool: { driver: { name: 'third', rules: [] } }, results: [{ ruleId: 'r', level: 'error', message }] });
    expect(await summaryOf(document)).toMatchObject({ results: 2, by_rule: [{ rule_id: 'r', level: 'error', count: 2 }] });
  });

  it('keeps 500 rule/level pairs, the most severe first, and says it truncated', async () => {
    const results = Array.from({ length: 520 }, (_, i) => ({ ruleId: `r${i}`, level: i === 519 ? 'error' : 'note', message }));
    const summary = await summaryOf(log(results));
    expect(summary).toMatchObject({ results: 520, truncated: true });
    const byRule = (summary as { by_rule: { rule_id: string }[] }).by_rule;
    expect(byRule).toHaveLength(500);
    expect(byRule[0]).toEqual({ rule_id: 'r519', level: 'error', count: 1 });
  });
});

describe('a SARIF log that is not 2.1.0 is refused with where', () => {
  it('refuses another version at loc version', async () => {
    const old = { ...fixtureJson('codeql-one-error.sarif'), version: '2.0.0' };
    expect(await refusal(bytesOf(old))).toEqual({
      loc: ['version'],
      message: 'Only SARIF 2.1.0 is read; this log says version "2.0.0".',
    });
  });

  it('names the path of a malformed result', async () => {
    const bad = log([
      { ruleId: 'r', message },
      { ruleId: 'r', level: 'fatal', message },
    ]);
    expect((await refusal(bytesOf(bad), 'sarif')).loc).toEqual(['runs', 0, 'results', 1, 'level']);
    const noMessage = log([{ ruleId: 'r' }]);
    expect((await refusal(bytesOf(noMessage), 'sarif')).loc).toEqual(['runs', 0, 'results', 0, 'message']);
    expect((await refusal(bytesOf({ version: '2.1.0' }), 'sarif')).loc).toEqual(['runs']);
  });

  it('refuses JSON that is not an object, and text that is not JSON', async () => {
    expect(await refusal(bytesOf('[1,2]'), 'sarif')).toEqual({ loc: [], message: 'A SARIF log is a JSON object.' });
    expect((await refusal(bytesOf('{"version": "2.1.0", "runs": ['), 'sarif')).message).toMatch(/^The document is not valid JSON/);
  });
});
