import { z } from 'zod';
import { BLOCKER_CODES } from '../../core/release/blocker.js';
import { gateSchema } from '../../core/release/gate.js';
import { PROMOTION_TARGETS } from '../../core/release/promotion.js';
import { isRepoName, isRepoOwner, normalizeCommitSha, normalizeRepoRoot } from '../../core/release/repo-names.js';
import { SNAPSHOT_STATUSES } from '../../core/release/snapshot.js';
import { pageQuerySchema } from './pagination-schemas.js';

const timestamp = z.string().meta({ description: 'RFC 3339 UTC' });
const FUTURE_SKEW_MS = 5 * 60 * 1000;

export const repoRootSchema = z
  .string()
  .max(300)
  .refine((v) => normalizeRepoRoot(v) !== null, 'Expected owner/repo or https://github.com/owner/repo.')
  .transform((v) => normalizeRepoRoot(v)!)
  .meta({ description: '`owner/repo` or `https://github.com/owner/repo`; compared case-insensitively.', example: 'acme/widgets' });

export const commitShaSchema = z
  .string()
  .refine((v) => normalizeCommitSha(v) !== null, 'Expected a 40-character hexadecimal commit SHA.')
  .transform((v) => normalizeCommitSha(v)!)
  .meta({ description: '40 hexadecimal characters, any case (stored lower case).', example: '3f786850e387550fdab836ed7e6dc881de23001b' });

export const decisionQuerySchema = z.object({ repo_root: repoRootSchema, commit_sha: commitShaSchema });

export const blockerSchema = z
  .object({
    code: z.enum(BLOCKER_CODES),
    component: z
      .string()
      .meta({ description: '`commit`, `check:<name>`, `evidence:<name>`, `workflows`, `workflow:<id>` or `execution:<id>`.' }),
    reason: z.string(),
    remediation_suggestion: z.string(),
  })
  .meta({ id: 'ReleaseBlocker' });

export const requirementSchema = z
  .object({
    policy: z.string().meta({ description: 'The gate field the requirement comes from, or `evidence` / `bound_workflows`.' }),
    requirement: z.string(),
    satisfied: z.boolean(),
    remediation: z.string().nullable(),
  })
  .meta({ id: 'ReleaseRequirement' });

export const baselineSchema = z
  .object({
    snapshot_id: z.uuid(),
    commit_sha: z.string(),
    release_label: z.string().nullable(),
    attested_at: timestamp,
  })
  .meta({ id: 'ReleaseBaseline', description: "The repository's latest attested (or promoted) snapshot other than this one." });

const checkRunSchema = z
  .object({
    name: z.string(),
    status: z.string(),
    conclusion: z.string().nullable(),
    produced_at: timestamp,
    details_url: z.string().nullable(),
    external_id: z.string().nullable(),
  })
  .meta({ id: 'ReleaseCheckRun' });

const workflowRunSchema = z
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

const uploadedEvidenceSchema = z
  .object({
    kind: z.string(),
    name: z.string(),
    status: z.enum(['passed', 'failed']),
    digest: z.string().nullable(),
    uri: z.string().nullable(),
    produced_at: timestamp,
    workflow_run: workflowRunSchema.optional().meta({ description: 'Present only for evidence a workflow recorded with its OIDC token.' }),
  })
  .meta({ id: 'ReleaseUploadedEvidence' });

const boundWorkflowSchema = z
  .object({
    workflow_id: z.string(),
    standalone: z.boolean().meta({ description: 'A single execution bound to the commit, counted as a one-stage workflow.' }),
    owner_id: z.uuid(),
    status: z.string(),
    executions: z.array(
      z.object({
        execution_id: z.uuid(),
        stage_id: z.string().nullable(),
        stage_role: z.string(),
        status: z.string(),
        verdict: z.string().nullable(),
        certificate_valid: z.boolean().nullable(),
      }),
    ),
    release: z.object({ admission: z.enum(['admitted', 'not_admitted', 'none']), reasons: z.array(z.string()) }),
    stages: z
      .array(
        z.object({
          stage_id: z.string(),
          stage_role: z.string(),
          status: z.string(),
          blocked_reasons: z.array(z.string()),
        }),
      )
      .optional()
      .meta({
        description:
          'For a workflow created with POST /workflows: every stage in order, including those that never ran (blocked, skipped).',
      }),
  })
  .meta({ id: 'ReleaseBoundWorkflow' });

export const decisionResponseSchema = z
  .object({
    decision: z.enum(['SHIP', 'NO_SHIP']),
    repo_root: z.string(),
    commit_sha: z.string(),
    snapshot_id: z.uuid(),
    snapshot_status: z.enum(SNAPSHOT_STATUSES),
    blockers: z.array(blockerSchema).meta({ description: 'Distinct by (code, component); empty if and only if the decision is SHIP.' }),
    explanation: z.array(requirementSchema).meta({ description: 'Every requirement of the gate and whether it is met.' }),
    provenance: z.object({
      evidence_digest: z.string().meta({ description: 'SHA-256 of the evaluated evidence and outcome; it addresses the snapshot.' }),
      gate: z.object({ version: z.number().int(), digest: z.string() }),
      check_runs: z.array(checkRunSchema),
      evidence: z.array(uploadedEvidenceSchema),
      workflows: z.array(boundWorkflowSchema),
    }),
    baseline: baselineSchema.nullable(),
    gate: gateSchema.extend({ version: z.number().int(), digest: z.string(), source: z.string() }).meta({ id: 'ReleaseGateApplied' }),
    evaluated_at: timestamp,
  })
  .meta({ id: 'ReleaseDecisionResponse' });

export const gateParamsSchema = z.object({
  owner: z
    .string()
    .refine(isRepoOwner, 'Not a GitHub owner name.')
    .transform((v) => v.toLowerCase()),
  repo: z
    .string()
    .refine(isRepoName, 'Not a GitHub repository name.')
    .transform((v) => v.toLowerCase()),
});

export const gateQuerySchema = z.object({
  version: z.coerce.number().int().min(1).optional().meta({ description: 'A recorded version; the newest when omitted.' }),
});

export const gateVersionSchema = z
  .object({
    repo_root: z.string(),
    version: z.number().int().meta({ description: '0 is the built-in default (no gate recorded).' }),
    digest: z.string().meta({ description: "SHA-256 of the gate's canonical JSON." }),
    gate: gateSchema,
    source: z.enum(['default', 'api', 'config_file']),
    created_by: z.uuid().nullable(),
    created_at: timestamp.nullable(),
  })
  .meta({ id: 'ReleaseGateVersion' });

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
    ref: z
      .string()
      .trim()
      .min(1)
      .max(255)
      .nullable()
      .default(null)
      .meta({ description: 'A branch (or `HEAD`) this commit is the head of; the badge resolves refs from it.' }),
  })
  .strict()
  .meta({ id: 'EvidenceRequest' });

export const evidenceResponseSchema = z
  .object({
    id: z.uuid(),
    repo_root: z.string(),
    commit_sha: z.string(),
    ref: z.string().nullable(),
    kind: z.string(),
    name: z.string(),
    status: z.enum(['passed', 'failed']),
    digest: z.string().nullable(),
    uri: z.string().nullable(),
    produced_at: timestamp,
    recorded_by: z.uuid().nullable().meta({ description: 'The user whose API key recorded it; null when a workflow did.' }),
    workflow_run: workflowRunSchema.nullable(),
    created_at: timestamp,
  })
  .meta({ id: 'EvidenceRecord' });

export const promotionRequestSchema = z
  .object({
    snapshot_id: z.uuid(),
    target_status: z.enum(PROMOTION_TARGETS).meta({
      description:
        "attested (from a SHIP candidate that is the commit's latest), promoted (from attested), rejected (from candidate), revoked (from attested or promoted).",
    }),
    release_label: z.string().trim().min(1).max(120).nullable().default(null).meta({ example: 'v1.4.0' }),
    metadata: z
      .record(z.string(), z.unknown())
      .default({})
      .refine((m) => JSON.stringify(m).length <= 16 * 1024, 'At most 16 KiB of JSON.')
      .meta({ description: 'Channel-specific metadata, recorded as given.' }),
  })
  .strict()
  .meta({ id: 'PromotionRequest' });

export const promotionResponseSchema = z
  .object({
    id: z.uuid(),
    snapshot_id: z.uuid(),
    repo_root: z.string(),
    commit_sha: z.string(),
    from_status: z.enum(SNAPSHOT_STATUSES),
    status: z.enum(SNAPSHOT_STATUSES),
    release_label: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()),
    promoted_by: z.uuid(),
    created_at: timestamp,
    attestation: z
      .object({
        payloadType: z.string(),
        payload: z.string(),
        signatures: z.array(z.object({ keyid: z.string(), sig: z.string() })),
      })
      .meta({
        description:
          'DSSE envelope of an in-toto Statement with an SLSA Verification Summary v1 predicate; subject digest {gitCommit: <sha>}.',
      }),
  })
  .meta({ id: 'PromotionResponse' });

export const promotionsQuerySchema = pageQuerySchema.extend({
  repo_root: repoRootSchema.optional(),
  commit_sha: commitShaSchema.optional(),
});

export const promotionListSchema = z.object({ promotions: z.array(promotionResponseSchema) }).meta({ id: 'PromotionList' });

export const healthQuerySchema = z.object({ repo_root: repoRootSchema.optional() });

export const healthResponseSchema = z
  .object({
    status: z.enum(['healthy', 'degraded', 'failed']),
    verification_graph: z.object({ reachable: z.boolean(), latency_ms: z.number() }),
    latest_attested_snapshot: z
      .object({
        snapshot_id: z.uuid(),
        repo_root: z.string(),
        commit_sha: z.string(),
        attested_at: timestamp,
        age_seconds: z.number().int(),
        max_age_seconds: z.number().int(),
        fresh: z.boolean(),
      })
      .nullable(),
    runtime_evidence: z.object({
      missing: z.boolean(),
      items: z.array(
        z.object({
          kind: z.enum(['worker_heartbeat', 'signing_key', 'check_run', 'evidence']),
          name: z.string(),
          repo_root: z.string().nullable(),
          commit_sha: z.string().nullable(),
        }),
      ),
    }),
    checked_at: timestamp,
  })
  .meta({ id: 'ReleaseHealth' });

export const badgeQuerySchema = z.object({
  repo: z.string().min(1).max(300).meta({ description: '`owner/repo`; anything else shows Unknown.', example: 'acme/widgets' }),
  commit: z.string().min(1).max(255).meta({ description: 'A 40-hex SHA, `HEAD`, or a branch name.', example: 'HEAD' }),
});
