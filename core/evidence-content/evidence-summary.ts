import { z } from 'zod';

/**
 * The normalised summary of an evidence document (docs/release-gate.md, "Evidence read by content"). It is computed
 * once, at upload; a decision reads summaries only, never the document. Lists are capped so a summary stays small.
 */
export const SUMMARY_NAME_LIMIT = 20;
/** SARIF: per-rule-per-level counts kept for the judge (ignore_rules); beyond this `truncated` is set. */
export const SARIF_RULE_LIMIT = 500;
/** SBOM: distinct licence expressions kept; beyond this `licenses_truncated` is set. */
export const SBOM_LICENSE_LIMIT = 500;
/** SBOM: the longest licence expression kept (whole); a longer one sets `licenses_truncated`. */
export const SBOM_EXPRESSION_LIMIT = 1000;
/** Provenance: subjects kept; `subjects_count` says how many the statement had. */
export const PROVENANCE_SUBJECT_LIMIT = 100;

const count = z.number().int().min(0);
const names = z.array(z.string()).max(SUMMARY_NAME_LIMIT);

export const SARIF_LEVELS = ['error', 'warning', 'note', 'none'] as const;
export type SarifLevel = (typeof SARIF_LEVELS)[number];

const junitSummarySchema = z
  .object({
    format: z.literal('junit'),
    total: count.meta({ description: 'Test cases in the report (at least what the suites claim).' }),
    failed: count.meta({ description: 'Test cases with a <failure>.' }),
    errored: count.meta({ description: 'Test cases with an <error> (and no <failure>).' }),
    skipped: count.meta({ description: 'Test cases with <skipped>.' }),
    failing: names.meta({ description: 'The first 20 failing or erroring test names, e.g. `com.acme.CartTest.addsItem`.' }),
  })
  .strict()
  .meta({ id: 'JunitEvidenceSummary' });

const sarifRuleCountSchema = z
  .object({ rule_id: z.string(), level: z.enum(SARIF_LEVELS), count: count.min(1) })
  .strict()
  .meta({ id: 'SarifRuleCount' });

const sarifSummarySchema = z
  .object({
    format: z.literal('sarif'),
    results: count.meta({ description: 'Results counted (suppressed and absent results are not).' }),
    by_level: z.object({ error: count, warning: count, note: count, none: count }).strict(),
    by_rule: z.array(sarifRuleCountSchema).max(SARIF_RULE_LIMIT).meta({
      description:
        'Results per rule and level, the most severe level first, then the most results; the studio shows the first 20. Capped at 500 entries.',
    }),
    truncated: z.boolean().meta({ description: 'More rule/level pairs than by_rule holds.' }),
    suppressed: count.meta({ description: 'Results with an accepted suppression, not counted.' }),
  })
  .strict()
  .meta({ id: 'SarifEvidenceSummary' });

const sbomLicenseSchema = z
  .object({
    expression: z.string().meta({ description: 'An SPDX expression, or a licence name that is not one.' }),
    components: names.meta({ description: 'The first 20 components under this licence.' }),
    count: count.min(1),
  })
  .strict()
  .meta({ id: 'SbomLicense' });

const sbomFields = {
  spec_version: z.string(),
  components: count.meta({ description: 'Components (packages) listed, nested ones included.' }),
  licenses: z.array(sbomLicenseSchema).max(SBOM_LICENSE_LIMIT),
  licenses_truncated: z.boolean().meta({
    description: `More distinct licences than \`licenses\` holds, or one longer than ${SBOM_EXPRESSION_LIMIT} characters: a denied-licence rule then fails.`,
  }),
  unlicensed: names.meta({ description: 'The first 20 components that name no licence.' }),
  unlicensed_count: count,
};

const cyclonedxSummarySchema = z
  .object({ format: z.literal('cyclonedx'), ...sbomFields })
  .strict()
  .meta({ id: 'CyclonedxEvidenceSummary' });
const spdxSummarySchema = z
  .object({ format: z.literal('spdx'), ...sbomFields })
  .strict()
  .meta({ id: 'SpdxEvidenceSummary' });

const provenanceSubjectSchema = z
  .object({ name: z.string(), digest: z.record(z.string(), z.string()) })
  .strict()
  .meta({ id: 'ProvenanceSubject' });

const provenanceSummarySchema = z
  .object({
    format: z.literal('provenance'),
    envelope: z.boolean().meta({ description: 'The statement came in a DSSE envelope.' }),
    predicate_type: z.string(),
    builder_id: z.string(),
    build_type: z.string(),
    subjects: z.array(provenanceSubjectSchema).max(PROVENANCE_SUBJECT_LIMIT),
    subjects_count: count,
    source_commits: z.array(z.string()).meta({
      description: '`gitCommit` digests of the resolved dependencies (the source the artefact was built from), lower case.',
    }),
    signatures: count.meta({ description: 'Signatures the envelope carried (0 for a bare statement).' }),
    verified_keys: z.array(z.string()).meta({
      description: 'RFC 7638 thumbprints, and kids, of the keys named by the gate at upload whose signature verified over the DSSE PAE.',
    }),
  })
  .strict()
  .meta({ id: 'ProvenanceEvidenceSummary' });

export const evidenceSummarySchema = z
  .discriminatedUnion('format', [
    junitSummarySchema,
    sarifSummarySchema,
    cyclonedxSummarySchema,
    spdxSummarySchema,
    provenanceSummarySchema,
  ])
  .meta({ id: 'EvidenceSummary', description: 'What the evidence document says, read once at upload.' });

export type EvidenceSummary = z.output<typeof evidenceSummarySchema>;
export type JunitSummary = z.output<typeof junitSummarySchema>;
export type SarifSummary = z.output<typeof sarifSummarySchema>;
export type SbomSummary = z.output<typeof cyclonedxSummarySchema> | z.output<typeof spdxSummarySchema>;
export type ProvenanceSummary = z.output<typeof provenanceSummarySchema>;
