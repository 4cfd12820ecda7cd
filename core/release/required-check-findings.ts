import { blocker, type Blocker, type Findings } from './blocker.js';
import type { ChangePaths } from './change-paths.js';
import { ageSeconds, checkOutcome, type CheckRun } from './evidence.js';
import type { Gate } from './gate.js';
import { pathsMatching } from './path-globs.js';
import {
  checkEntryApp,
  checkEntryName,
  checkEntryPaths,
  checkRunSource,
  countedCheckRun,
  reportedBy,
  type RequiredCheckEntry,
} from './required-check-entry.js';

/** Items listed as people read them: `a`, `a` and `b`, `a`, `b` and `c` (or `or`). */
function listed(items: readonly string[], last: 'and' | 'or' = 'and'): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} ${last} ${items[items.length - 1]}`;
}

/** Conclusions GitHub counts as passing that are no run of the check: a gate may refuse them (`skipped_is_success`). */
const NOT_RUN_CONCLUSIONS = new Set(['skipped', 'neutral']);

/** A caller that gives no files: a conditional check is then required (fail closed). */
const FILES_NOT_GIVEN: ChangePaths = { known: false, why: 'They were not given to this judgement.' };

/** How many touching paths a requirement names. */
const SHOWN_PATHS = 3;

/** Whether a conditional entry applies to the change, and why, in words that end its requirement. */
function applies(entry: RequiredCheckEntry, change: ChangePaths): { required: boolean; why: string } {
  const globs = checkEntryPaths(entry);
  if (globs === null) return { required: true, why: '' };
  const scope = listed(
    globs.map((g) => `\`${g}\``),
    'or',
  );
  if (!change.known)
    return { required: true, why: ` Required although limited to ${scope}: the files this change touches are unknown. ${change.why}` };
  const touching = pathsMatching(change.paths, globs);
  if (touching.length === 0) return { required: false, why: ` Not required: the change touches no ${scope}.` };
  const shown = touching.slice(0, SHOWN_PATHS).map((p) => `\`${p}\``);
  const more = touching.length > SHOWN_PATHS ? ` and ${touching.length - SHOWN_PATHS} more` : '';
  return { required: true, why: ` Required: the change touches ${scope} (${shown.join(', ')}${more}).` };
}

/**
 * Each required check run must have completed successfully, recently enough. A plain name is met by the newest check
 * run of that name from any source; an entry pinned to an App (`{name, app}`) only by that App's check runs, and a
 * check of that name from another source is named in the blocker (docs/release-gate.md, "Checks pinned to their
 * source"): any App, or any workflow token with `checks: write`, can post a passing check under any name. An entry
 * with `paths` is required only when the change touches one of them, and whenever its files are unknown (fail closed;
 * docs/release-gate.md, "Conditional checks"; `change` absent: unknown). A skipped or neutral check passes unless `skipped_is_success` is false.
 */
export function requiredCheckFindings(gate: Gate, checkRuns: CheckRun[], now: Date, change: ChangePaths = FILES_NOT_GIVEN): Findings {
  const findings: Findings = { requirements: [], blockers: [] };
  for (const entry of gate.required_checks) {
    const name = checkEntryName(entry);
    const app = checkEntryApp(entry);
    const component = `check:${name}`;
    const from = app === null ? '' : ` reported by \`${app}\``;
    const scope = applies(entry, change);
    const requirement = `Check run '${name}'${from} completed successfully within the last ${gate.evidence_max_age_seconds} s.${scope.why}`;
    if (!scope.required) {
      findings.requirements.push({ policy: 'required_checks', requirement, satisfied: true, remediation: null });
      continue;
    }
    const check = countedCheckRun(entry, checkRuns);
    const others =
      app === null ? [] : [...new Set(checkRuns.filter((c) => c.name === name && !reportedBy(c, app)).map((c) => checkRunSource(c)))];
    const outcome = check ? checkOutcome(check) : 'missing';
    const age = check ? ageSeconds(check.produced_at, now) : 0;
    let found: Blocker | undefined;
    if (!check && app !== null && others.length > 0) {
      found = blocker(
        'required_check_wrong_source',
        component,
        `\`${name}\` was reported by ${listed(others)}, the gate expects \`${app}\`.`,
        `Have \`${app}\` run '${name}' on this commit; a check of that name from another source does not count (find out who reported it).`,
      );
    } else if (!check) {
      found = blocker(
        'required_check_missing',
        component,
        `Required check '${name}'${from} has not run on this commit.${scope.why}`,
        `Run the '${name}' check on this commit (push it, or re-run CI).`,
      );
    } else if (outcome === 'pending') {
      found = blocker(
        'required_check_pending',
        component,
        `Required check '${name}'${from} is ${check.status}.`,
        `Wait for '${name}' to complete, then ask for the decision again.`,
      );
    } else if (outcome === 'passed' && !gate.skipped_is_success && NOT_RUN_CONCLUSIONS.has(check.conclusion ?? '')) {
      found = blocker(
        'required_check_failed',
        component,
        `Required check '${name}'${from} concluded ${check.conclusion}; this gate does not count a skipped or neutral check as passing (skipped_is_success: false).`,
        `Make '${name}' run on this commit and succeed (a workflow's path or job filters may skip it).`,
      );
    } else if (outcome === 'failed') {
      found = blocker(
        'required_check_failed',
        component,
        `Required check '${name}'${from} concluded ${check.conclusion ?? 'without a conclusion'}.`,
        `Fix what '${name}' reports and re-run it.`,
      );
    } else if (age > gate.evidence_max_age_seconds) {
      found = blocker(
        'runtime_evidence_stale',
        component,
        `Check '${name}'${from} completed at ${check.produced_at}, longer ago than the gate's evidence_max_age_seconds (${gate.evidence_max_age_seconds}).`,
        `Re-run '${name}' on this commit.`,
      );
    }
    if (found) findings.blockers.push(found);
    findings.requirements.push({
      policy: 'required_checks',
      requirement,
      satisfied: !found,
      remediation: found?.remediation_suggestion ?? null,
    });
  }
  return findings;
}
