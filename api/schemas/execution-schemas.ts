import { z } from 'zod';
import { PROVIDERS } from '../../core/agent/provider.js';
import { EXECUTION_KINDS, EXECUTION_STATUSES } from '../../core/executions/execution.js';
import { STAGE_ROLES } from '../../core/policies/policy.js';
import { normalizeCommitSha, normalizeRepoRoot } from '../../core/release/github-identifiers.js';
import { pageQuerySchema } from './pagination-schemas.js';
import { capabilitySchema, jwkSchema } from './policy-schemas.js';

const timestamp = z.string().meta({ description: 'RFC 3339 UTC' });

export const providerSchema = z.enum(PROVIDERS).meta({ id: 'Provider' });
export const stageRoleSchema = z.enum(STAGE_ROLES).meta({ id: 'StageRole' });
export const executionStatusSchema = z.enum(EXECUTION_STATUSES).meta({ id: 'ExecutionStatus' });

export const repoRootSchema = z
  .string()
  .max(300)
  .transform((value, ctx) => {
    const normalized = normalizeRepoRoot(value);
    if (normalized === null) ctx.addIssue({ code: 'custom', message: 'Expected owner/repo or https://github.com/owner/repo.' });
    return normalized ?? value;
  })
  .meta({ description: '`owner/repo` or `https://github.com/owner/repo`; stored lower case.', example: 'acme/shop' });

export const commitShaSchema = z
  .string()
  .max(64)
  .transform((value, ctx) => {
    const normalized = normalizeCommitSha(value);
    if (normalized === null) ctx.addIssue({ code: 'custom', message: 'Expected a 40-character hex commit SHA.' });
    return normalized ?? value;
  })
  .meta({ description: '40 hex characters; stored lower case.' });

export const taskRequestSchema = z
  .object({
    task: z
      .string()
      .min(1)
      .max(20_000)
      .refine((t) => t.trim().length > 0, 'The task must not be blank.')
      .meta({ description: 'What the agent should do; reaches the model verbatim as the user message.' }),
    compliance_policy: z.string().min(1).max(100).default('default').meta({
      description:
        'A built-in preset (`default`, `hipaa`, `sox`, `legal_privilege` alias `legal`) or a custom policy; its newest version applies.',
    }),
    budget_cents: z
      .number()
      .int()
      .min(100)
      .max(1_000_000)
      .default(1500)
      .meta({ description: "Spending limit in US cents; at most the policy's max_budget_cents." }),
    provider: providerSchema.optional().meta({ description: 'Defaults to SHIPGATE_DEFAULT_PROVIDER.' }),
    model: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .meta({ description: "Defaults to SHIPGATE_DEFAULT_MODEL (for the default provider) or the provider's default model." }),
    api_key: z.string().min(8).max(1000).optional().meta({
      description:
        'Provider key for this execution only. Stored encrypted (AES-256-GCM), erased when the run ends, never returned or logged.',
    }),
    permissions: z.array(capabilitySchema).max(100).optional().meta({
      description:
        "Requested capabilities (the policy's defaults when omitted). Strict: any that the policy or the stage role does not allow answers 403 with the denied list.",
    }),
    stage_role: stageRoleSchema.default('worker'),
    repo_root: repoRootSchema.optional(),
    commit_sha: commitShaSchema.optional(),
  })
  .strict()
  .refine((b) => (b.repo_root === undefined) === (b.commit_sha === undefined), {
    message: 'repo_root and commit_sha bind the execution to a commit together; give both or neither.',
    path: ['commit_sha'],
  })
  .meta({ id: 'TaskRequest' });

const droppedPermissionSchema = z
  .object({ permission: z.string(), reason: z.string(), detail: z.string() })
  .meta({ id: 'DroppedPermission' });
const policyRefSchema = z.object({ name: z.string(), version: z.number().int(), digest: z.string() }).meta({ id: 'PolicyRef' });

export const toolCallSchema = z
  .object({
    seq: z.number().int(),
    call_id: z.string().meta({ description: "The provider's id of the call." }),
    tool: z.string(),
    arguments: z.unknown().meta({ description: 'Parsed arguments, or the raw text when they did not parse.' }),
    capability: z.string().nullable(),
    verdict: z.enum(['allowed', 'denied']),
    reason: z.string().nullable().meta({
      description:
        'For denials: unknown_tool, invalid_arguments, capability_not_granted, forbidden_by_policy, budget_exhausted, tool_call_limit, upstream_credentials_unavailable, awaiting_approval and tool_rejected (MCP gateway), argument_rule:<rule>.',
    }),
    certificate_id: z.uuid().nullable(),
    result_digest: z.string().nullable(),
    output: z.string().nullable().meta({ description: 'Truncated to 4 KiB.' }),
    duration_ms: z.number().int(),
    created_at: timestamp,
    agent_id: z
      .string()
      .optional()
      .meta({ description: "The sub-agent that made a coding agent's call through its hooks (docs/agent-hooks.md); absent otherwise." }),
    approved_by: z.object({ id: z.uuid(), name: z.string().nullable() }).optional().meta({
      description:
        'The APPROVER or ADMIN who approved a held call (a policy\'s `ask`), as its certificate names them (docs/mcp-gateway.md, "Asking a person"); absent otherwise.',
    }),
    denied_by: z.object({ id: z.uuid(), name: z.string().nullable(), reason: z.string().nullable() }).optional().meta({
      description:
        "The APPROVER or ADMIN who denied a held call, with the words they gave, as its certificate names them (the entry's `reason` is then `denied_by_approver`); absent otherwise, a timed-out call included.",
    }),
  })
  .meta({ id: 'ToolCall' });

const envelopeSchema = z
  .object({
    payloadType: z.string(),
    payload: z.string(),
    signatures: z.array(z.object({ keyid: z.string(), sig: z.string() })),
  })
  .meta({ id: 'DsseEnvelope' });

export const certificateSchema = z
  .object({
    id: z.uuid(),
    kind: z.enum(['tool_call', 'execution', 'promotion']),
    theorem: z.string(),
    plan_hash: z.string(),
    verified_properties: z.array(z.string()),
    prover: z.string(),
    issued_at: timestamp,
    digest: z.string(),
    envelope: envelopeSchema,
  })
  .meta({ id: 'CertificateRecord' });

const artifactSchema = z
  .object({
    kind: z.enum(['report', 'review', 'release_notes']),
    name: z.string(),
    content: z.string(),
    digest: z.string(),
    approved_for_release: z.boolean().optional(),
  })
  .meta({ id: 'Artifact' });

const executionFields = {
  id: z.uuid(),
  kind: z.enum(EXECUTION_KINDS).meta({
    description: '`task`: shipgate ran the agent; `agent_session`: an agent called tools through the MCP gateway (docs/mcp-gateway.md).',
  }),
  owner_id: z.uuid(),
  workflow_id: z.uuid().nullable(),
  stage_id: z.string().nullable(),
  task: z.string(),
  status: executionStatusSchema,
  verdict: z.enum(['compliant', 'non_compliant']).nullable(),
  policy: policyRefSchema,
  stage_role: stageRoleSchema,
  permissions: z.array(z.string()).meta({ description: 'The resolved capabilities the execution holds.' }),
  dropped_permissions: z.array(droppedPermissionSchema),
  budget_cents: z.number().int(),
  cost_cents: z.number().int(),
  provider: providerSchema.nullable().meta({ description: 'Null for agent sessions: the agent brings its own model.' }),
  model: z.string().nullable(),
  api_key_override: z.boolean().meta({ description: 'Whether a per-execution provider key was given (the key itself is never returned).' }),
  upstream_execution_ids: z.array(z.uuid()),
  repo_root: z.string().nullable(),
  commit_sha: z.string().nullable(),
  output: z.string().nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  violations: z
    .array(z.string())
    .meta({ description: 'Why the verdict is non_compliant: blocking denials, output rule hits, budget overrun.' }),
  incomplete_tool_calls: z
    .array(
      z.object({
        call_id: z.string(),
        tool: z.string(),
        arguments: z.record(z.string(), z.unknown()),
        capability: z.string(),
        agent_id: z.string().nullable(),
        requested_at: timestamp,
        completed: z.literal(false),
      }),
    )
    .optional()
    .meta({
      description:
        'A coding agent\'s calls its pre hook allowed whose post never came (docs/agent-hooks.md, "Records"), oldest first; present only when there are some. Not entries: no certificate covers what they did.',
    }),
  created_at: timestamp,
  started_at: timestamp.nullable(),
  finished_at: timestamp.nullable(),
};

export const executionSummarySchema = z.object(executionFields).meta({ id: 'ExecutionSummary' });

/** The owner's name beside `owner_id` in execution and workflow responses (not in signed audit packages). */
export const ownerNameField = {
  owner_name: z.string().nullable().meta({
    description: 'The owner\'s display name, for every role that may see the record (docs/api.md, "People by name"); null if unknown.',
  }),
};

/** A listed execution as GET /executions answers it: the summary with its owner's name. */
export const executionSummaryWithOwnerSchema = executionSummarySchema.extend(ownerNameField).meta({ id: 'ExecutionSummaryWithOwner' });

export const executionSchema = z
  .object({
    ...executionFields,
    tool_calls: z.array(toolCallSchema).meta({ description: 'Every tool call attempted, in order, with its verify verdict.' }),
    certificates: z.array(certificateSchema).meta({ description: 'Every certificate issued, in order.' }),
    artifacts: z.array(artifactSchema),
  })
  .meta({ id: 'Execution' });

/** An execution as the execution, task and agent-session routes answer it: the record with its owner's name. */
export const executionWithOwnerSchema = executionSchema.extend(ownerNameField).meta({ id: 'ExecutionWithOwner' });

export const executionIdParamsSchema = z.object({ execution_id: z.uuid() });

export const executionListQuerySchema = pageQuerySchema.extend({
  status: executionStatusSchema.optional().meta({ description: 'Only executions in this status.' }),
  scope: z.enum(['own', 'all']).default('own').meta({ description: "`all` lists every user's executions (ADMIN, AUDITOR)." }),
});

const seqCursor = /^s(\d{1,9})$/;

/** Tool calls are read oldest first (a transcript); the cursor is the last seq seen. */
export const toolCallPageQuerySchema = z.object({
  limit: pageQuerySchema.shape.limit,
  cursor: z
    .string()
    .max(20)
    .regex(seqCursor, 'Invalid cursor.')
    .optional()
    .meta({ description: "Opaque cursor from the previous page's Link header." }),
});

export const encodeSeqCursor = (seq: number) => `s${seq}`;
export const decodeSeqCursor = (cursor: string | undefined) => (cursor ? Number(seqCursor.exec(cursor)![1]) : undefined);

export const attestationSchema = z
  .object({
    regime: z.string().meta({ description: 'The compliance policy the execution ran under.' }),
    retention_days: z.number().int().nullable(),
    proofs_required: z.array(z.string()).meta({
      description: '`action_safe:tool_call:<seq>` per allowed tool call and `final_output_safe:execution` (except for cancelled runs).',
    }),
    proofs_satisfied: z.array(z.string()),
    proofs_missing: z.array(z.string()),
    certificate_count: z.number().int(),
    verified_properties: z.array(z.string()),
    compliant: z.boolean().meta({ description: 'Completed, verdict compliant, no proof missing and every certificate verified.' }),
  })
  .meta({ id: 'Attestation' });

export const auditPackageSchema = z
  .object({
    package_id: z.uuid(),
    generated_at: timestamp,
    compliance_regime: z.string(),
    execution: executionSummarySchema,
    tool_calls: z.array(toolCallSchema),
    certificates: z.array(
      certificateSchema.extend({
        verified: z
          .boolean()
          .meta({ description: 'Re-verified when the package was generated: signature, digest, chain and tool-call binding.' }),
        reason: z.string().nullable().meta({
          description:
            'Why it did not verify: bad_signature, unknown_key, digest_mismatch, record_mismatch, broken_chain, tool_call_mismatch, ...',
        }),
      }),
    ),
    artifacts: z.array(artifactSchema),
    policy: z.record(z.string(), z.unknown()).meta({ description: 'The policy version applied, with its digest.' }),
    attestation: attestationSchema,
    public_keys: z.array(jwkSchema),
    manifest: z
      .object({
        members: z.array(z.object({ name: z.string(), sha256: z.string() })),
        envelope: envelopeSchema,
      })
      .meta({
        description:
          "DSSE-signed list of every other member's SHA-256 (canonical JSON): removing or altering any part is detectable. Check with `shipgate verify <file>`.",
      }),
  })
  .meta({ id: 'ExecutionAuditPackage' });
