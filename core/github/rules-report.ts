import type { AuthorshipBlock } from '../release/authorship.js';
import { changedFilesText } from '../release/changed-files-text.js';
import type { RuleOutcome } from '../release/rule-outcome.js';
import type { FittedPart } from './fit-to-bytes.js';
import { reportCell } from './report-cell.js';

/** How many triggering paths a row names; the decision lists the first few, the row says how many more. */
const PATHS_IN_A_ROW = 5;

/** What stands in the rule's way, as one line: the missing approvals and who requested changes. */
export function ruleMissingText(rule: RuleOutcome): string {
  const parts: string[] = [];
  if (rule.missing) parts.push(rule.missing);
  if (rule.disapproved_by.length > 0) parts.push(`changes requested by ${rule.disapproved_by.map((l) => `@${l}`).join(', ')}`);
  return parts.join('; ');
}

/**
 * One rule's row. Its name and message come from the gate file, its paths from the pull request, its logins from the
 * reviews: every cell is quoted, the paths in no code span, and a login named, not notified (docs/github-app.md,
 * "Quoting outside text").
 */
function ruleRow(rule: RuleOutcome): string {
  const shown = rule.triggered_by.slice(0, PATHS_IN_A_ROW);
  const more = rule.triggered_by.length - shown.length;
  const files = shown.length === 0 ? '—' : `${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
  return `| ${reportCell(rule.name)} | ${rule.met ? 'met' : '**not met**'} | ${reportCell(ruleMissingText(rule) || '—')} | ${reportCell(files)} |`;
}

/**
 * The "Rules" section of the check run and the PR comment (docs/release-gate.md, "Rules"): how many
 * files the pull request changes, and each rule of the gate that applied to it, met or not, with
 * what is missing and the files that made it apply; the rows fitted like the blockers. Nothing when
 * the decision judged no rules and read no files.
 */
export function rulesParts(block: AuthorshipBlock, seeAll: string): FittedPart[] {
  if (!block.changed_files && !block.rules) return [];
  const parts: FittedPart[] = [{ lines: ['**Rules**', ''] }];
  if (block.changed_files) parts.push({ lines: [changedFilesText(block.changed_files), ''] });
  const rules = block.rules ?? [];
  if (rules.length === 0) {
    parts.push({ lines: ['No rule of the gate applies to this pull request.', ''] });
    return parts;
  }
  parts.push(
    { lines: ['| Rule | Met | Missing | Triggered by |', '| --- | --- | --- | --- |'] },
    // A blank line first: a line right after a table would be read as one more row.
    { items: rules.map(ruleRow), more: (left) => `\n… and ${left} more rules not shown here: ${seeAll}` },
    { lines: [''] },
  );
  return parts;
}
