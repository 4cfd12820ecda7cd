import type { JunitSummary, SarifLevel, SarifSummary } from './evidence-summary.js';
import type { SarifRules, TestsRules } from './evidence-rules.js';
import type { RuleResult } from './judge-evidence-content.js';

/** "a, b, c" or "a, b, c and 9 more" when the summary kept fewer names than there are. */
export function namesList(names: readonly string[], total: number): string {
  const more = total - names.length;
  return more > 0 ? `${names.join(', ')} and ${more} more` : names.join(', ');
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Tests: failed and errored test cases together against `max_failed`; the total against `min_total`. */
export function judgeTests(summary: JunitSummary, rules: TestsRules): RuleResult[] {
  const bad = summary.failed + summary.errored;
  const errored = summary.errored > 0 ? ` (${summary.errored} with errors)` : '';
  const allowed = rules.max_failed > 0 ? `; at most ${rules.max_failed} allowed` : '';
  const names = bad > 0 ? `: ${namesList(summary.failing, bad)}` : '';
  const results: RuleResult[] = [
    {
      rule: 'max_failed',
      passed: bad <= rules.max_failed,
      detail: `${bad} of ${plural(summary.total, 'test')} failed${errored}${allowed}${names}`,
      remediation:
        'Fix the failing tests and upload the new report for this commit; if these failures are accepted, raise `max_failed` for this evidence in the gate.',
    },
  ];
  if (rules.min_total !== undefined) {
    results.push({
      rule: 'min_total',
      passed: summary.total >= rules.min_total,
      detail: `The report holds ${plural(summary.total, 'test')}; the gate needs at least ${rules.min_total}.`,
      remediation:
        'Check that the whole suite ran and reported into this file (a crashed, filtered or sharded run reports fewer tests), then upload it again.',
    });
  }
  return results;
}

const RANK: Record<SarifLevel, number> = { none: 0, note: 1, warning: 2, error: 3 };
const LEVELS_HIGH_FIRST: SarifLevel[] = ['error', 'warning', 'note', 'none'];

/**
 * SARIF: results above `max_level` block, less those of `ignore_rules`. When the summary's per-rule counts were
 * truncated, results of ignored rules that did not fit are still counted (the rule fails closed).
 */
export function judgeSarif(summary: SarifSummary, rules: SarifRules): RuleResult[] {
  const blocking = LEVELS_HIGH_FIRST.filter((level) => RANK[level] > RANK[rules.max_level]);
  const ignored = new Set(rules.ignore_rules);
  const isBlocking = (level: SarifLevel) => blocking.includes(level);
  const ignoredCount = summary.by_rule.filter((r) => ignored.has(r.rule_id) && isBlocking(r.level)).reduce((sum, r) => sum + r.count, 0);
  const count = blocking.reduce((sum, level) => sum + summary.by_level[level], 0) - ignoredCount;
  const top = summary.by_rule
    .filter((r) => !ignored.has(r.rule_id) && isBlocking(r.level))
    .slice(0, 10)
    .map((r) => `${r.rule_id} (${r.level}) ×${r.count}`);
  const levels = blocking.length > 1 ? `${blocking.slice(0, -1).join(', ')} or ${blocking[blocking.length - 1]}` : blocking[0];
  const skipped = ignoredCount > 0 ? ` (${plural(ignoredCount, 'result')} of ignored rules not counted)` : '';
  const detail =
    count > 0
      ? `${plural(count, 'result')} at level ${levels}${skipped}${top.length ? `: ${top.join(', ')}` : ''}${summary.truncated ? ' (per-rule counts truncated)' : ''}.`
      : `No result at level ${levels}${skipped}.`;
  return [
    {
      rule: 'max_level',
      passed: count === 0,
      detail,
      remediation:
        'Fix the code the results point at (or dismiss false positives in the scanner) and upload the new SARIF log; to accept a rule’s findings, add it to `ignore_rules`.',
    },
  ];
}
