import { blocker, type Findings } from './blocker.js';
import { ageSeconds, checkOutcome, type CheckRun } from './evidence.js';
import type { Gate } from './gate.js';

/** Each required check run must have completed successfully, recently enough. */
export function requiredCheckFindings(gate: Gate, checkRuns: CheckRun[], now: Date): Findings {
  const byName = new Map(checkRuns.map((c) => [c.name, c]));
  const findings: Findings = { requirements: [], blockers: [] };
  for (const name of gate.required_checks) {
    const component = `check:${name}`;
    const requirement = `Check run '${name}' completed successfully within the last ${gate.evidence_max_age_seconds} s.`;
    const check = byName.get(name);
    const outcome = check ? checkOutcome(check) : 'missing';
    const age = check ? ageSeconds(check.produced_at, now) : 0;
    let found;
    if (!check) {
      found = blocker(
        'required_check_missing',
        component,
        `Required check '${name}' has not run on this commit.`,
        `Run the '${name}' check on this commit (push it, or re-run CI).`,
      );
    } else if (outcome === 'pending') {
      found = blocker(
        'required_check_pending',
        component,
        `Required check '${name}' is ${check.status}.`,
        `Wait for '${name}' to complete, then ask for the decision again.`,
      );
    } else if (outcome === 'failed') {
      found = blocker(
        'required_check_failed',
        component,
        `Required check '${name}' concluded ${check.conclusion ?? 'without a conclusion'}.`,
        `Fix what '${name}' reports and re-run it.`,
      );
    } else if (age > gate.evidence_max_age_seconds) {
      found = blocker(
        'runtime_evidence_stale',
        component,
        `Check '${name}' completed at ${check.produced_at}, longer ago than the gate's evidence_max_age_seconds (${gate.evidence_max_age_seconds}).`,
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
