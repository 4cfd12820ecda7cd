import { z } from 'zod';
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
  })
  .meta({
    id: 'WorkflowRun',
    description: 'The GitHub Actions workflow run that recorded the evidence with its OIDC token (from the verified token claims).',
  });

export const evidenceRequestSchema = z
  .object({
    repo_root: repoRootSchema,
    commit_sha: commitShaSchema,
    kind: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'Letters, digits, `_`, `.`, `-`; at most 64.')
      .meta({ example: 'sbom' }),
    name: z.string().trim().min(1).max(200).meta({ description: "What the gate's required_evidence names.", example: 'sbom-scan' }),
    status: z.enum(['passed', 'failed']),
    digest: z
      .string()
      .regex(/^([a-z0-9-]+:)?[0-9a-f]{32,128}$/i, 'Expected hex, optionally prefixed with the algorithm (`sha256:`).')
      .nullable()
      .default(null),
    uri: z.url().max(2000).nullable().default(null),
    produced_at: z.iso
      .datetime({ offset: true })
      .refine((v) => Date.parse(v) <= Date.now() + FUTURE_SKEW_MS, 'Cannot be in the future.')
      .transform((v) => new Date(v).toISOString()),
    ref: optionalTextSchema(255).meta({ description: 'A branch (or `HEAD`) this commit is the head of; the badge resolves refs from it.' }),
  })
  .strict()
  .meta({ id: 'EvidenceRequest' });

export const evidenceResponseSchema = z
  .object({
    id: z.uuid(),
    repo_root: z.string(),
    commit_sha: z.string(),
    ref: z.string().nullable(),
    ...evidenceFactFields,
    recorded_by: z.uuid().nullable().meta({ description: 'The user whose API key recorded it; null when a workflow did.' }),
    workflow_run: workflowRunSchema.nullable(),
    created_at: timestamp,
  })
  .meta({ id: 'EvidenceRecord' });
