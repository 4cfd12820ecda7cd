import { EVIDENCE_FORMAT_TITLES, type EvidenceFormat } from './evidence-format.js';
import type { EvidenceSummary } from './evidence-summary.js';
import type { RequiredEvidenceEntry } from './evidence-rules.js';
import { judgeProvenance } from './judge-provenance.js';
import { judgeSbom } from './judge-sbom.js';
import { judgeSarif, judgeTests } from './judge-tests-sarif.js';

/** One rule applied to one evidence document: a broken rule is an `evidence_content_failed` blocker. */
export interface RuleResult {
  /** The rule's name in the gate, e.g. `max_failed`; `document` and `format` when the document is missing or another kind. */
  rule: string;
  passed: boolean;
  /** The facts, e.g. "3 of 412 tests failed: a, b, c". */
  detail: string;
  /** What a person does to make the rule hold. */
  remediation: string;
}

const UPLOAD = 'upload it with the evidence (the Action’s `evidence-file`, or `content` in POST /api/v1/releases/evidence)';

function formatOf(entry: RequiredEvidenceEntry | null): EvidenceFormat | null {
  return entry !== null && typeof entry !== 'string' ? (entry.format ?? null) : null;
}

/**
 * Judges what an evidence document says against its `required_evidence` entry (docs/release-gate.md, "Evidence read
 * by content"); reads the summary only. An entry with a format needs a document of that format, and its rules (or,
 * without rules, the format's default rule) apply. A plain name (or no entry) gets the default rule of whatever
 * document the evidence carries: tests, no failed or errored test; SARIF, no `error` result; SBOM and provenance,
 * none. Without a document a plain name is judged by its claimed status alone, so this returns [].
 */
export function judgeEvidenceContent(
  summary: EvidenceSummary | null,
  entry: RequiredEvidenceEntry | null,
  commitSha: string,
): RuleResult[] {
  const wanted = formatOf(entry);
  if (summary === null) {
    if (wanted === null) return [];
    return [
      {
        rule: 'document',
        passed: false,
        detail: `No document was uploaded with this evidence; the gate reads a ${EVIDENCE_FORMAT_TITLES[wanted]}.`,
        remediation: `Produce the ${EVIDENCE_FORMAT_TITLES[wanted]} in CI and ${UPLOAD}.`,
      },
    ];
  }
  if (wanted !== null && wanted !== summary.format) {
    return [
      {
        rule: 'format',
        passed: false,
        detail: `The document is a ${EVIDENCE_FORMAT_TITLES[summary.format]}; the gate reads a ${EVIDENCE_FORMAT_TITLES[wanted]}.`,
        remediation: `Upload the ${EVIDENCE_FORMAT_TITLES[wanted]} under this evidence name, or change the entry's format in the gate.`,
      },
    ];
  }
  const rules = entry !== null && typeof entry !== 'string' && 'rules' in entry ? entry.rules : undefined;
  switch (summary.format) {
    case 'junit':
      return judgeTests(summary, (rules as Parameters<typeof judgeTests>[1] | undefined) ?? { max_failed: 0 });
    case 'sarif':
      return judgeSarif(summary, (rules as Parameters<typeof judgeSarif>[1] | undefined) ?? { max_level: 'warning', ignore_rules: [] });
    case 'cyclonedx':
    case 'spdx':
      return rules ? judgeSbom(summary, rules as Parameters<typeof judgeSbom>[1]) : [];
    case 'provenance':
      return rules ? judgeProvenance(summary, rules as Parameters<typeof judgeProvenance>[1], commitSha) : [];
  }
}
