import type { CheckRun } from '../release/evidence.js';
import {
  checkEntryApp,
  checkEntryName,
  checkRunSource,
  countedCheckRun,
  type RequiredCheckEntry,
} from '../release/required-check-entry.js';
import { clipToBytes, type FittedPart } from './fit-to-bytes.js';
import { REPORT_CELL_MAX_BYTES } from './github-limits.js';
import { oneLine } from './one-line.js';

const clip = (text: string) => clipToBytes(oneLine(text), REPORT_CELL_MAX_BYTES);

/** One required check: what the gate expects of its source, and the check run that counted, with who reported it. */
function checkLine(entry: RequiredCheckEntry, checkRuns: readonly CheckRun[]): string {
  const app = checkEntryApp(entry);
  const expects = app === null ? 'any source' : `only \`${clip(String(app))}\``;
  const check = countedCheckRun(entry, checkRuns);
  const state = check
    ? `${check.status === 'completed' ? (check.conclusion ?? 'completed') : check.status}, reported by ${clip(checkRunSource(check))}`
    : app === null
      ? 'not reported'
      : 'not reported by that source';
  return `- \`${clip(checkEntryName(entry))}\` (${expects}): ${state}`;
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
