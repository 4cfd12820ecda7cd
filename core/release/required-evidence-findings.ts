import { evidenceEntryName, type RequiredEvidenceEntry } from '../evidence-content/evidence-rules.js';
import { judgeEvidenceContent, type RuleResult } from '../evidence-content/judge-evidence-content.js';
import { blocker, type Blocker, type Findings } from './blocker.js';
import { ageSeconds, type CommitEvidence, type UploadedEvidence } from './evidence.js';
import type { Gate } from './gate.js';

/** The findings of required evidence, with the rule results of each required upload's document, by evidence name. */
export interface EvidenceFindings extends Findings {
  ruleResults: Record<string, RuleResult[]>;
}

function statusBlocker(gate: Gate, name: string, item: UploadedEvidence | undefined, now: Date): Blocker | undefined {
  const component = `evidence:${name}`;
  if (!item) {
    return blocker(
      'required_evidence_missing',
      component,
      `Required evidence '${name}' has not been uploaded for this commit.`,
      `Upload it: POST /api/v1/releases/evidence with name '${name}' for this commit.`,
    );
  }
  if (item.status === 'failed') {
    return blocker(
      'required_evidence_failed',
      component,
      `Evidence '${name}' (${item.kind}) was recorded as failed.`,
      `Fix what '${name}' reports and upload passing evidence.`,
    );
  }
  if (ageSeconds(item.produced_at, now) > gate.evidence_max_age_seconds) {
    return blocker(
      'runtime_evidence_stale',
      component,
      `Evidence '${name}' was produced at ${item.produced_at}, longer ago than the gate's evidence_max_age_seconds (${gate.evidence_max_age_seconds}).`,
      `Produce '${name}' again for this commit and upload it.`,
    );
  }
  return undefined;
}

/**
 * One `evidence_content_failed` blocker per broken rule (docs/release-gate.md, "Evidence read by content"). The component
 * names the rule too (`evidence:<name>:<rule>`): blockers are distinct by code and component, and each broken rule is
 * its own fact to act on.
 */
function contentBlockers(name: string, results: RuleResult[]): Blocker[] {
  return results
    .filter((r) => !r.passed)
    .map((r) =>
      blocker(
        'evidence_content_failed',
        `evidence:${name}:${r.rule}`,
        `Evidence '${name}' breaks rule ${r.rule}: ${r.detail}`,
        r.remediation,
      ),
    );
}

function requirementText(gate: Gate, entry: RequiredEvidenceEntry): string {
  const name = evidenceEntryName(entry);
  const base = `Evidence '${name}' was uploaded with status passed within the last ${gate.evidence_max_age_seconds} s`;
  if (typeof entry === 'string' || !('format' in entry)) return `${base}; a document it carries keeps its format's default rule.`;
  const rules = 'rules' in entry && entry.rules ? ` ${JSON.stringify(entry.rules)}` : " (the format's default rule)";
  return `${base}, carrying a ${entry.format} document that keeps its rules${rules}.`;
}

/**
 * Each required piece of uploaded evidence must be recorded as passed, recently enough, and its document (if it carries
 * one, or must) must keep the entry's rules. Both must hold: content that breaks a rule blocks even when CI claimed
 * `passed`, and a claimed `failed` blocks whatever the document says.
 */
export function requiredEvidenceFindings(gate: Gate, evidence: CommitEvidence, now: Date, commitSha: string): EvidenceFindings {
  const byName = new Map(evidence.uploads.map((e) => [e.name, e]));
  const findings: EvidenceFindings = { requirements: [], blockers: [], ruleResults: {} };
  for (const entry of gate.required_evidence) {
    const name = evidenceEntryName(entry);
    const item = byName.get(name);
    const found: Blocker[] = [];
    const status = statusBlocker(gate, name, item, now);
    if (status) found.push(status);
    if (item) {
      const results = judgeEvidenceContent(evidence.contents?.[name]?.summary ?? null, entry, commitSha);
      findings.ruleResults[name] = results;
      found.push(...contentBlockers(name, results));
    }
    findings.blockers.push(...found);
    findings.requirements.push({
      policy: 'required_evidence',
      requirement: requirementText(gate, entry),
      satisfied: found.length === 0,
      remediation: found.length === 0 ? null : found.map((b) => b.remediation_suggestion).join(' '),
    });
  }
  return findings;
}
