import { z } from 'zod';
import { EVIDENCE_FORMATS } from '../../core/evidence-content/evidence-format.js';
import { evidenceSummarySchema } from '../../core/evidence-content/evidence-summary.js';
import { evidenceDocumentSchema } from './release-evidence-schemas.js';

export const ruleResultSchema = z
  .object({
    rule: z.string().meta({
      description:
        'The rule in the gate (`max_failed`, `max_level`, `denied_licenses`, ...); `document` or `format` when the document is missing or of another format.',
    }),
    passed: z.boolean(),
    detail: z.string().meta({ example: '3 of 412 tests failed: CartTest.addsItem, CartTest.removesItem, PayTest.refunds' }),
    remediation: z.string(),
  })
  .meta({
    id: 'EvidenceRuleResult',
    description: 'One content rule applied to an evidence document; a broken one is an `evidence_content_failed` blocker.',
  });

/**
 * What a decision shows of an upload's document (docs/release-gate.md, "Evidence read by content"). `format` and
 * `summary_digest` are in the snapshot (its address binds what the evidence contained); the rest is the decision's.
 */
export const decisionEvidenceContentFields = {
  format: z.enum(EVIDENCE_FORMATS).optional().meta({ description: 'Present when the evidence carries a document: its format.' }),
  summary_digest: z.string().optional().meta({
    description:
      "`sha256:` of the summary's canonical JSON: the snapshot binds it, so an attested release says what the evidence contained.",
  }),
  summary: evidenceSummarySchema
    .optional()
    .meta({ description: 'What the document says, read at upload (decision only, not in the snapshot).' }),
  rule_results: z
    .array(ruleResultSchema)
    .optional()
    .meta({ description: 'The content rules of its required_evidence entry, each with its facts; [] when the gate does not require it.' }),
  document: evidenceDocumentSchema.nullable().optional(),
};
