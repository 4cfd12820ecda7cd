import { z } from 'zod';
import { visibleName } from '../../core/visible-name.js';
import { EVIDENCE_FORMATS } from '../../core/evidence-content/evidence-format.js';
import { evidenceSummarySchema } from '../../core/evidence-content/evidence-summary.js';
import { commitShaSchema, optionalTextSchema, repoRootSchema, timestamp } from './release-schemas.js';

const FUTURE_SKEW_MS = 5 * 60 * 1000;

/** What a piece of evidence states: in its record and in a decision's provenance alike. */
export const evidenceFactFields = {
  kind: z.string(),
  name: z.string(),
  status: z.enum(['passed', 'failed']),
  digest: z.string().nullable(),
  uri: z.string().nullable(),
  produced_at: timestamp,
};

export const workflowRunSchema = z
  .object({
    repository: z.string(),
    workflow_ref: z.string().nullable().meta({ example: 'acme/widgets/.github/workflows/ci.yml@refs/heads/main' }),
    run_id: z.string().nullable(),
    run_attempt: z.string().nullable(),
    actor: z.string().nullable(),
    event_name: z.string().nullable(),
    // Recorded since migration 039; absent in older records.
    job_workflow_ref: z.string().nullable().optional().meta({
      description: 'The workflow file the job ran (a reusable workflow’s own file): what a gate’s `evidence_sources` matches.',
      example: 'acme/widgets/.github/workflows/release.yml@refs/heads/main',
    }),
    sha: z
      .string()
      .nullable()
      .optional()
      .meta({ description: 'The commit the run built (the `sha` claim; on a pull request, its merge commit).' }),
    ref: z.string().nullable().optional().meta({ description: 'The ref the run ran on (`refs/heads/main`, `refs/pull/12/merge`).' }),
    repository_id: z
      .string()
      .nullable()
      .optional()
      .meta({ description: "GitHub's numeric id of the repository (names can be re-registered; ids cannot)." }),
  })
  .meta({
    id: 'WorkflowRun',
    description:
      'The GitHub Actions workflow run that recorded the evidence with its OIDC token (from the verified token claims; docs/release-gate.md, "Evidence from workflows").',
  });

export const evidenceRequestSchema = z
  .object({
    repo_root: repoRootSchema,
    commit_sha: commitShaSchema,
    kind: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'Letters, digits, `_`, `.`, `-`; at most 64.')
      .meta({ example: 'sbom' }),
    name: visibleName(z.string().trim().min(1).max(200)).meta({
      description: "What the gate's required_evidence names.",
      example: 'sbom-scan',
    }),
    status: z.enum(['passed', 'failed']),
    digest: z
      .string()
      .regex(/^([a-z0-9-]+:)?[0-9a-f]{32,128}$/i, 'Expected hex, optionally prefixed with the algorithm (`sha256:`).')
      .nullable()
      .default(null),
    uri: z
      .url({ protocol: /^https?$/, error: 'An http or https URL: a `javascript:` or `data:` link would run wherever it is shown.' })
      .max(2000)
      .nullable()
      .default(null)
      .meta({ description: 'Where the evidence can be read: an http or https URL (other schemes are refused).' }),
    produced_at: z.iso
      .datetime({ offset: true })
      .refine((v) => Date.parse(v) <= Date.now() + FUTURE_SKEW_MS, 'Cannot be in the future.')
      .transform((v) => new Date(v).toISOString()),
    ref: optionalTextSchema(255).meta({ description: 'A branch (or `HEAD`) this commit is the head of; the badge resolves refs from it.' }),
    // Checked as base64 where it is decoded, in a parse thread with the rest of the document's reading, not here: zod's
    // check of 7 MiB of base64 took a third of what an upload costs the event loop (docs/operations.md, "Security").
    content: z
      .string()
      .min(1)
      .nullable()
      .default(null)
      .meta({
        format: 'base64',
        contentEncoding: 'base64',
        description:
          'The evidence document itself: standard base64 of its exact bytes (with padding, no line breaks), at most 10 MiB decoded (413 beyond). ' +
          'shipgate reads it once, now: content that is not base64, or a document that does not read as its format, is 422 and nothing is stored. ' +
          '`digest` is then computed here (a different one is 422).',
      }),
    format: z
      .enum(EVIDENCE_FORMATS)
      .nullable()
      .default(null)
      .meta({ description: "The document's format; omitted, it is detected (422 when it cannot be)." }),
  })
  .strict()
  .refine((body) => body.format === null || body.content !== null, {
    path: ['format'],
    message: '`format` describes `content`; send the document too.',
  })
  .meta({ id: 'EvidenceRequest' });

export const evidenceDocumentSchema = z
  .object({
    digest: z.string().meta({ description: '`sha256:<hex>` of the exact bytes; the same bytes are stored once.' }),
    format: z.enum(EVIDENCE_FORMATS),
    media_type: z.string().meta({ description: 'The Content-Type the download is served with.', example: 'application/xml' }),
    size: z.number().int().meta({ description: 'Bytes.' }),
    download_url: z.string().meta({
      description: 'GET it with an API key: the exact bytes, as an attachment (relative to this server).',
      example: '/api/v1/releases/evidence/0b9e0c1e-7d35-4a8f-9d2b-3c1f2e4a5b6c/document',
    }),
  })
  .meta({ id: 'EvidenceDocument', description: 'The uploaded document; null without one, or once it was pruned (the summary stays).' });

export const evidenceResponseSchema = z
  .object({
    id: z.uuid(),
    repo_root: z.string(),
    commit_sha: z.string(),
    ref: z.string().nullable(),
    ...evidenceFactFields,
    recorded_by: z.uuid().nullable().meta({ description: 'The user whose API key recorded it; null when a workflow did.' }),
    workflow_run: workflowRunSchema.nullable(),
    format: z.enum(EVIDENCE_FORMATS).nullable().meta({ description: "The document's format; null without a document." }),
    summary: evidenceSummarySchema.nullable(),
    document: evidenceDocumentSchema.nullable(),
    created_at: timestamp,
  })
  .meta({ id: 'EvidenceRecord' });

export const evidenceIdParamsSchema = z.object({ evidence_id: z.uuid() });
