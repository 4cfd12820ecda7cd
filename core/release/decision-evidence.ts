import type { EvidenceSummary } from '../evidence-content/evidence-summary.js';
import type { RuleResult } from '../evidence-content/judge-evidence-content.js';
import { evidenceDocumentPath, type CommitEvidence, type EvidenceDocument, type UploadedEvidence } from './evidence.js';

/**
 * An upload as a decision shows it: the snapshot's fields (with the document's `format` and `summary_digest`, which the
 * snapshot binds) plus, in the decision only, what the document says, the rules applied to it and where to download it.
 */
export type DecisionEvidence = UploadedEvidence & {
  summary?: EvidenceSummary;
  /** The content rules of its `required_evidence` entry; [] for evidence the gate does not require. */
  rule_results?: RuleResult[];
  /** null once the document was pruned (its summary and digest stay). */
  document?: (EvidenceDocument & { download_url: string }) | null;
};

/** The provenance's uploads with their documents' summaries and rule results (docs/release-gate.md, "Evidence read by content"). */
export function withContent(
  uploads: UploadedEvidence[],
  evidence: CommitEvidence,
  rules: Record<string, RuleResult[]>,
): DecisionEvidence[] {
  return uploads.map((upload) => {
    const content = evidence.contents?.[upload.name];
    const results = rules[upload.name];
    // Without a document: only a required entry with a format has a result (its `document` rule).
    if (!content) return results?.length ? { ...upload, rule_results: results } : upload;
    const document = content.document && { ...content.document, download_url: evidenceDocumentPath(content.evidence_id) };
    return { ...upload, summary: content.summary, rule_results: results ?? [], document };
  });
}
