import { z } from 'zod';
import { visibleName } from '../../core/visible-name.js';
import { checkStageGraph } from '../../core/workflows/check-stage-graph.js';
import { STAGE_ID_PATTERN, STAGE_STATUSES, WORKFLOW_LIMITS as L, WORKFLOW_STATUSES } from '../../core/workflows/workflow.js';
import { pageQuerySchema } from './pagination-schemas.js';
import {
  attestationSchema,
  commitShaSchema,
  executionSchema,
  ownerNameField,
  providerSchema,
  repoRootSchema,
  stageRoleSchema,
  taskRequestSchema,
} from './execution-schemas.js';
import { capabilitySchema, jwkSchema } from './policy-schemas.js';

const timestamp = z.string().meta({ description: 'RFC 3339 UTC' });
const task = taskRequestSchema.shape;

export const workflowStatusSchema = z.enum(WORKFLOW_STATUSES).meta({ id: 'WorkflowStatus' });
export const stageStatusSchema = z.enum(STAGE_STATUSES).meta({ id: 'WorkflowStageStatus' });

export const workflowStageRequestSchema = z
  .object({
    id: z
      .string()
      .regex(STAGE_ID_PATTERN, 'A stage id is 1-64 characters of A-Z, a-z, 0-9, ".", "_" and "-".')
      .optional()
      .meta({ description: 'Stable id later stages name in upstream_stage_ids; a UUID is generated when absent.', example: 'review' }),
    name: visibleName(z.string().min(1).max(L.stageNameMax)),
    task: task.task,
    compliance_policy: task.compliance_policy,
    budget_cents: task.budget_cents,
    stage_role: stageRoleSchema.default('worker').meta({
      description: '`reviewer` stages can approve a release (submit_review); a `release` stage starts only when admitted.',
    }),
    provider: task.provider,
    model: task.model,
    api_key: z.string().min(L.apiKeyMin).max(1000).optional().meta({
      description:
        "Provider key for this stage only. Stored encrypted (AES-256-GCM), handed to the stage's execution, erased when the stage ends; never returned or logged.",
    }),
    permissions: z.array(capabilitySchema).max(100).optional().meta({
      description:
        'Requested capabilities. Lenient (unlike POST /tasks): the stage holds requested ∩ policy ceiling ∩ stage-role ceiling − forbidden, and every dropped one is listed in dropped_permissions.',
    }),
    upstream_stage_ids: z.array(z.string().max(64)).max(L.stagesMax).optional().meta({
      description:
        'Ids of earlier stages this one builds on: their approved artifacts reach it (read_upstream) and their executions are bound to its run. A release stage lists at least one, all reviewers.',
    }),
  })
  .strict()
  .meta({ id: 'WorkflowStageRequest' });

export const workflowRequestSchema = z
  .object({
    name: visibleName(z.string().min(1).max(L.nameMax)),
    description: z.string().max(L.descriptionMax).optional(),
    stages: z.array(workflowStageRequestSchema).min(L.stagesMin).max(L.stagesMax).meta({ description: 'In execution order.' }),
    repo_root: repoRootSchema.optional().meta({ description: 'With commit_sha: binds the workflow as release evidence for that commit.' }),
    commit_sha: commitShaSchema.optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if ((body.repo_root === undefined) !== (body.commit_sha === undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['commit_sha'],
        message: 'repo_root and commit_sha bind the workflow to a commit together; give both or neither.',
      });
    for (const issue of checkStageGraph(body.stages)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  })
  .meta({ id: 'WorkflowRequest' });

const droppedPermissionSchema = z.object({ permission: z.string(), reason: z.string(), detail: z.string() });

export const workflowStageSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    task: z.string(),
    stage_role: stageRoleSchema,
    compliance_policy: z.string(),
    budget_cents: z.number().int(),
    provider: providerSchema,
    model: z.string(),
    permissions: z.array(z.string()).meta({ description: 'The capabilities the stage holds.' }),
    dropped_permissions: z.array(droppedPermissionSchema).meta({ description: 'Requested capabilities the stage does not hold, and why.' }),
    upstream_stage_ids: z.array(z.string()),
    status: stageStatusSchema,
    execution_id: z.uuid().nullable().meta({ description: "The stage's execution, once started." }),
    blocked_reasons: z.array(z.string()).meta({
      description:
        'Why a release stage was not admitted: not_completed:<stage_id>, non_compliant:<stage_id>, not_approved:<stage_id>, certificate_invalid:<stage_id>.',
    }),
    output_summary: z.string().nullable().meta({ description: "The first 180 characters of the execution's output." }),
    started_at: timestamp.nullable(),
    finished_at: timestamp.nullable(),
  })
  .meta({ id: 'WorkflowStageResponse' });

export const workflowSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string().nullable(),
    status: workflowStatusSchema,
    owner_id: z.uuid(),
    repo_root: z.string().nullable(),
    commit_sha: z.string().nullable(),
    stages: z.array(workflowStageSchema),
    created_at: timestamp,
    started_at: timestamp.nullable(),
    finished_at: timestamp.nullable(),
  })
  .meta({ id: 'WorkflowResponse' });

/** A workflow as the workflow routes answer it: the record with its owner's name. */
export const workflowWithOwnerSchema = workflowSchema.extend(ownerNameField).meta({ id: 'WorkflowWithOwner' });

export const workflowCancelSchema = z
  .object({
    id: z.uuid(),
    status: workflowStatusSchema,
    cancelled_stage_ids: z.array(z.string()).meta({ description: 'The stages this request cancelled (empty when it changed nothing).' }),
  })
  .meta({ id: 'WorkflowCancelResponse' });

export const workflowIdParamsSchema = z.object({ workflow_id: z.uuid() });

export const workflowListQuerySchema = pageQuerySchema.extend({
  status: workflowStatusSchema.optional().meta({ description: 'Only workflows in this status.' }),
  scope: z.enum(['own', 'all']).default('own').meta({ description: "`all` lists every user's workflows (ADMIN, AUDITOR)." }),
});

const certificateCheckFields = {
  verified: z.boolean(),
  reason: z.string().nullable(),
};

export const workflowPackageSchema = z
  .object({
    package_id: z.uuid(),
    generated_at: timestamp,
    workflow: workflowSchema,
    stages: z.array(
      z.object({
        stage_id: z.string(),
        status: stageStatusSchema,
        execution: executionSchema
          .extend({ certificates: z.array(executionSchema.shape.certificates.element.extend(certificateCheckFields)) })
          .nullable()
          .meta({
            description: 'The full execution (tool calls, certificates re-verified now, artifacts); null for a stage that never ran.',
          }),
        attestation: attestationSchema
          .nullable()
          .meta({ description: 'What an auditor can rely on for the stage; null for a stage that never ran.' }),
      }),
    ),
    lineage: z
      .array(
        z.object({
          stage_id: z.string(),
          execution_id: z.uuid(),
          upstream: z.array(z.object({ stage_id: z.string(), execution_id: z.uuid(), certificate_digest: z.string().nullable() })),
        }),
      )
      .meta({
        description:
          "The review-then-release chain: each stage's execution and the upstream executions (with their certificate digests) bound to it.",
      }),
    public_keys: z.array(jwkSchema),
    manifest: z
      .object({
        members: z.array(z.object({ name: z.string(), sha256: z.string() })),
        envelope: z.object({
          payloadType: z.string(),
          payload: z.string(),
          signatures: z.array(z.object({ keyid: z.string(), sig: z.string() })),
        }),
      })
      .meta({ description: "DSSE-signed list of every other member's SHA-256 (canonical JSON). Check with `shipgate verify <file>`." }),
  })
  .meta({ id: 'WorkflowAuditPackage' });
