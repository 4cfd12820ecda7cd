import type { CheckRun } from '../release/evidence.js';
import {
  checkEntryApp,
  checkEntryName,
  checkRunSource,
  countedCheckRun,
  type RequiredCheckEntry,
} from '../release/required-check-entry.js';
import type { FittedPart } from './fit-to-bytes.js';
import { reportCell } from './report-cell.js';

/**
 * One required check: what the gate expects of its source, and the check run that counted, with who reported it. The
 * check's name, its App and its state come from whoever created the check run: quoted, in no code span
 * (docs/github-app.md, "Quoting outside text").
 */
function checkLine(entry: RequiredCheckEntry, checkRuns: readonly CheckRun[]): string {
  const app = checkEntryApp(entry);
  const expects = app === null ? 'any source' : `only ${reportCell(String(app))}`;
  const check = countedCheckRun(entry, checkRuns);
  const state = check
    ? `${reportCell(check.status === 'completed' ? (check.conclusion ?? 'completed') : check.status)}, reported by ${checkRunSource(check, reportCell)}`
    : app === null
      ? 'not reported'
      : 'not reported by that source';
  return `- ${reportCell(checkEntryName(entry))} (${expects}): ${state}`;
}

/**
 * The "Required checks" section of the check run and the PR comment (docs/release-gate.md, "Checks pinned to their
 * source"): each required check with the source the gate expects and who reported the check run that counted; fitted
 * like the blockers.
 */
export function requiredChecksParts(entries: readonly RequiredCheckEntry[], checkRuns: readonly CheckRun[], seeAll: string): FittedPart[] {
  if (entries.length === 0) return [];
  return [
    { lines: ['**Required checks**', ''] },
    {
      items: entries.map((entry) => checkLine(entry, checkRuns)),
      more: (left) => `- … and ${left} more check${left === 1 ? '' : 's'} not shown here: ${seeAll}`,
    },
    { lines: [''] },
  ];
}
