import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { requireOwnedResource, WORKFLOW } from '../../core/executions/owned-resource-access.js';
import { verifyCertificateChain } from '../../core/certificates/verify-certificate-chain.js';
import { NotFoundError } from '../../core/errors.js';
import { buildWorkflowPackage, type StageEvidence } from '../../core/workflows/build-workflow-package.js';
import { createWorkflow } from '../../core/workflows/create-workflow.js';
import type { Deps } from '../deps.js';
import { auditPackageDownload, auditPackageResponse } from '../audit-package-download.js';
import { listOwnedResources } from '../list-owned-resources.js';
import { withOwnerName, withOwnerNames } from '../owner-names.js';
import { defineRoute } from '../route.js';
import { runPlanningPorts } from '../run-planning-ports.js';
import { locationHeader } from '../schemas/header-schemas.js';
import { linkNextHeader } from '../schemas/pagination-schemas.js';
import {
  workflowCancelSchema,
  workflowIdParamsSchema,
  workflowListQuerySchema,
  workflowPackageSchema,
  workflowRequestSchema,
  workflowWithOwnerSchema,
} from '../schemas/workflow-schemas.js';
import type { Workflow } from '../../core/workflows/workflow.js';

const tags = ['workflows'] as const;

/** Every stage's execution with its policy and its certificates re-verified now. */
async function stageEvidence(deps: Deps, workflow: Workflow): Promise<Map<string, StageEvidence>> {
  const entries = await Promise.all(
    workflow.stages.map(async (stage) => {
      const execution = stage.execution_id ? await deps.executions.get(stage.execution_id) : null;
      if (!execution) return [];
      const policy = await deps.policies.get(execution.policy.name, execution.policy.version);
      const checks = verifyCertificateChain(execution.certificates, deps.verifier, execution.tool_calls);
      return [[stage.id, { execution, policy, checks }] as const];
    }),
  );
  return new Map(entries.flat());
}

export const workflowRoutes = [
  defineRoute({
    method: 'post',
    path: '/workflows',
    tags,
    auth: ['ADMIN', 'OPERATOR'],
    summary: 'Create a multi-stage workflow (queued for a worker)',
    description:
      'Stages run one at a time in order, each as a governed execution. Limits: name 1-160, description <= 400, 1-12 stages, stage name ' +
      '1-120, budget_cents 100-1000000 (default 1500), api_key >= 8. Stage ids are unique, upstream_stage_ids name earlier stages, and ' +
      'a `release` stage lists at least one upstream stage, every one a `reviewer`. A release stage starts only when every upstream ' +
      'stage completed, compliant, approved the release (submit_review) and its certificates verify; otherwise it is `blocked` with ' +
      'reasons and the workflow fails. Permissions are lenient: each stage holds what its policy and role allow and lists what was ' +
      'dropped. With repo_root and commit_sha the workflow is release evidence for that commit. Every violation answers 422 with the ' +
      "field's `loc`.",
    body: workflowRequestSchema,
    repoAccess: { need: 'write', repository: ({ body }) => body.repo_root },
    responses: {
      201: { description: 'The queued workflow.', schema: workflowWithOwnerSchema, headers: locationHeader("The workflow's URL.") },
    },
    async handler({ body, caller, deps }) {
      const workflow = await createWorkflow({ ...runPlanningPorts(deps), workflows: deps.workflows }, caller, body);
      deps.logger.info({ workflow_id: workflow.id, stages: workflow.stages.length, by: caller.user.id }, 'workflow created');
      return { status: 201, body: await withOwnerName(deps.accounts, workflow), headers: { Location: `/api/v1/workflows/${workflow.id}` } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/workflows',
    tags,
    auth: 'any',
    summary: 'List workflows, newest first',
    description: "The caller's own workflows; `scope=all` lists everyone's (ADMIN, AUDITOR; 403 for other roles).",
    query: workflowListQuerySchema,
    responses: {
      200: {
        description: 'A page of workflows; the next one is in the Link header.',
        schema: z.array(workflowWithOwnerSchema),
        headers: linkNextHeader,
      },
    },
    handler: async ({ query, caller, ctx, deps }) => {
      const listed = await listOwnedResources(deps.workflows, query, caller, ctx, (who) =>
        deps.repoAccess.readableAmong(who, deps.reads.repositoriesWith.workflows),
      );
      return { ...listed, body: await withOwnerNames(deps.accounts, listed.body) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/workflows/{workflow_id}',
    tags,
    auth: 'any',
    summary: 'A workflow with every stage: status, execution, timing, output summary, dropped permissions, blocked reasons',
    description: 'Visible to its owner, ADMIN and AUDITOR; anyone else gets 404.',
    params: workflowIdParamsSchema,
    responses: { 200: { description: 'The workflow record.', schema: workflowWithOwnerSchema } },
    async handler({ params, caller, deps }) {
      const asked = { kind: WORKFLOW, id: params.workflow_id, action: 'read' } as const;
      const workflow = await requireOwnedResource(deps.repoAccess, caller, asked, await deps.workflows.get(params.workflow_id));
      return { body: await withOwnerName(deps.accounts, workflow) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/workflows/{workflow_id}',
    tags,
    auth: 'any',
    summary: 'Cancel a workflow (idempotent)',
    description:
      'queued or running -> cancelled: the running stage and its execution are cancelled (the agent aborts its provider request), ' +
      'pending stages are cancelled. Completed, failed or cancelled workflows stay as they are. Answers 200 either way, with the ' +
      "stages this request cancelled. Owner or ADMIN; an AUDITOR may read but not cancel another user's workflow (403); anyone else gets 404.",
    params: workflowIdParamsSchema,
    responses: { 200: { description: 'The workflow status after the request.', schema: workflowCancelSchema } },
    async handler({ params, caller, deps }) {
      const asked = { kind: WORKFLOW, id: params.workflow_id, action: 'cancel' } as const;
      const workflow = await requireOwnedResource(deps.repoAccess, caller, asked, await deps.workflows.get(params.workflow_id));
      const result = await deps.workflows.cancel(params.workflow_id);
      if (!result) throw new NotFoundError('Workflow', params.workflow_id);
      deps.logger.info(
        {
          workflow_id: workflow.id,
          status: result.workflow.status,
          cancelled_stages: result.cancelled_stage_ids.length,
          by: caller.user.id,
        },
        'workflow cancel requested',
      );
      return { body: { id: result.workflow.id, status: result.workflow.status, cancelled_stage_ids: result.cancelled_stage_ids } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/workflows/{workflow_id}/export',
    tags: ['workflows', 'compliance'],
    auth: 'any',
    summary: 'The signed audit package of a workflow',
    description:
      'The workflow, every stage with its full execution (tool calls, artifacts, every certificate re-verified now) and attestation, ' +
      'the lineage chain `[{stage_id, execution_id, upstream: [{stage_id, execution_id, certificate_digest}]}]`, the public keys, and a ' +
      'DSSE-signed manifest over the digest of every member. Served as an attachment; `shipgate verify <file>` checks it offline. ' +
      'Owner, ADMIN and AUDITOR; anyone else gets 404.',
    params: workflowIdParamsSchema,
    responses: { 200: auditPackageResponse(workflowPackageSchema, 'workflow') },
    async handler({ params, caller, deps }) {
      const asked = { kind: WORKFLOW, id: params.workflow_id, action: 'read' } as const;
      const workflow = await requireOwnedResource(deps.repoAccess, caller, asked, await deps.workflows.get(params.workflow_id));
      const [stages, publicKeys] = await Promise.all([stageEvidence(deps, workflow), deps.keys.list()]);
      const pkg = buildWorkflowPackage({ packageId: randomUUID(), generatedAt: new Date().toISOString(), workflow, stages, publicKeys });
      return auditPackageDownload(pkg, deps.signer, 'workflow', workflow.id);
    },
  }),
];
