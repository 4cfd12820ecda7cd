import { blocker, type Blocker, type Findings } from './blocker.js';
import { ageSeconds, checkOutcome, type CheckRun } from './evidence.js';
import type { Gate } from './gate.js';
import { checkEntryApp, checkEntryName, checkRunSource, countedCheckRun, reportedBy } from './required-check-entry.js';

/** Sources listed as people read them: `a`, `a` and `b`, `a`, `b` and `c`. */
function listed(sources: string[]): string {
  return sources.length < 2 ? sources.join('') : `${sources.slice(0, -1).join(', ')} and ${sources[sources.length - 1]}`;
}

/**
 * Each required check run must have completed successfully, recently enough. A plain name is met by the newest check
 * run of that name from any source; an entry pinned to an App (`{name, app}`) only by that App's check runs, and a
 * check of that name from another source is named in the blocker (docs/release-gate.md, "Checks pinned to their
 * source"): any App, or any workflow token with `checks: write`, can post a passing check under any name.
 */
export function requiredCheckFindings(gate: Gate, checkRuns: CheckRun[], now: Date): Findings {
  const findings: Findings = { requirements: [], blockers: [] };
  for (const entry of gate.required_checks) {
    const name = checkEntryName(entry);
    const app = checkEntryApp(entry);
    const component = `check:${name}`;
    const from = app === null ? '' : ` reported by \`${app}\``;
    const requirement = `Check run '${name}'${from} completed successfully within the last ${gate.evidence_max_age_seconds} s.`;
    const check = countedCheckRun(entry, checkRuns);
    const others = app === null ? [] : [...new Set(checkRuns.filter((c) => c.name === name && !reportedBy(c, app)).map(checkRunSource))];
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
        `Required check '${name}'${from} has not run on this commit.`,
        `Run the '${name}' check on this commit (push it, or re-run CI).`,
      );
    } else if (outcome === 'pending') {
      found = blocker(
        'required_check_pending',
        component,
        `Required check '${name}'${from} is ${check.status}.`,
        `Wait for '${name}' to complete, then ask for the decision again.`,
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
