import { blocker, type Findings } from './blocker.js';
import { ageSeconds, type UploadedEvidence } from './evidence.js';
import type { Gate } from './gate.js';

/** Each required piece of uploaded evidence must be recorded as passed, recently enough. */
export function requiredEvidenceFindings(gate: Gate, uploads: UploadedEvidence[], now: Date): Findings {
  const byName = new Map(uploads.map((e) => [e.name, e]));
  const findings: Findings = { requirements: [], blockers: [] };
  for (const name of gate.required_evidence) {
    const component = `evidence:${name}`;
    const requirement = `Evidence '${name}' was uploaded with status passed within the last ${gate.evidence_max_age_seconds} s.`;
    const item = byName.get(name);
    const age = item ? ageSeconds(item.produced_at, now) : 0;
    let found;
    if (!item) {
      found = blocker(
        'required_evidence_missing',
        component,
        `Required evidence '${name}' has not been uploaded for this commit.`,
        `Upload it: POST /api/v1/releases/evidence with name '${name}' for this commit.`,
      );
    } else if (item.status === 'failed') {
      found = blocker(
        'required_evidence_failed',
        component,
        `Evidence '${name}' (${item.kind}) was recorded as failed.`,
        `Fix what '${name}' reports and upload passing evidence.`,
      );
    } else if (age > gate.evidence_max_age_seconds) {
      found = blocker(
        'runtime_evidence_stale',
        component,
        `Evidence '${name}' was produced at ${item.produced_at}, longer ago than the gate's evidence_max_age_seconds (${gate.evidence_max_age_seconds}).`,
        `Produce '${name}' again for this commit and upload it.`,
      );
    }
    if (found) findings.blockers.push(found);
    findings.requirements.push({
      policy: 'required_evidence',
      requirement,
      satisfied: !found,
      remediation: found?.remediation_suggestion ?? null,
    });
  }
  return findings;
}
