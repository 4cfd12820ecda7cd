import { z } from 'zod';
import { NotFoundError } from '../../core/errors.js';
import { EXECUTION, requireOwnedResource } from '../../core/executions/owned-resource-access.js';
import { cancelExecution } from '../../core/executions/cancel-execution.js';
import { listOwnedResources } from '../list-owned-resources.js';
import { withOwnerName, withOwnerNames } from '../owner-names.js';
import { defineRoute } from '../route.js';
import {
  decodeSeqCursor,
  encodeSeqCursor,
  executionIdParamsSchema,
  executionListQuerySchema,
  executionSummaryWithOwnerSchema,
  executionWithOwnerSchema,
  toolCallPageQuerySchema,
  toolCallSchema,
} from '../schemas/execution-schemas.js';
import { linkNext, linkNextHeader } from '../schemas/pagination-schemas.js';

const tags = ['executions'] as const;

export const executionRoutes = [
  defineRoute({
    method: 'get',
    path: '/executions',
    tags,
    auth: 'any',
    summary: 'List executions, newest first',
    description:
      "The caller's own executions; `scope=all` lists everyone's (ADMIN, AUDITOR; 403 for other roles). " +
      'Entries omit tool calls, certificates and artifacts: read them with GET /executions/{execution_id}.',
    query: executionListQuerySchema,
    responses: {
      200: {
        description: 'A page of executions; the next one is in the Link header.',
        schema: z.array(executionSummaryWithOwnerSchema),
        headers: linkNextHeader,
      },
    },
    handler: async ({ query, caller, ctx, deps }) => {
      const listed = await listOwnedResources(deps.executions, query, caller, ctx, (who) =>
        deps.repoAccess.readableAmong(who, deps.reads.repositoriesWith.executions),
      );
      return { ...listed, body: await withOwnerNames(deps.accounts, listed.body) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/executions/{execution_id}',
    tags,
    auth: 'any',
    summary: 'An execution with its tool calls, certificates and output',
    description: 'Visible to its owner, ADMIN and AUDITOR; anyone else gets 404.',
    params: executionIdParamsSchema,
    responses: { 200: { description: 'The execution record.', schema: executionWithOwnerSchema } },
    async handler({ params, caller, deps }) {
      const asked = { kind: EXECUTION, id: params.execution_id, action: 'read' } as const;
      const execution = await requireOwnedResource(deps.repoAccess, caller, asked, await deps.executions.get(params.execution_id));
      return { body: await withOwnerName(deps.accounts, execution) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/executions/{execution_id}/tool-calls',
    tags,
    auth: 'any',
    summary: "An execution's tool calls, in the order they were made",
    description:
      'Paged for long runs. Unlike other lists this one is oldest first (it is a transcript); the next page is in the Link header.',
    params: executionIdParamsSchema,
    query: toolCallPageQuerySchema,
    responses: { 200: { description: 'A page of tool calls by seq.', schema: z.array(toolCallSchema), headers: linkNextHeader } },
    async handler({ params, query, caller, ctx, deps }) {
      const asked = { kind: EXECUTION, id: params.execution_id, action: 'read' } as const;
      await requireOwnedResource(deps.repoAccess, caller, asked, await deps.executions.getSummary(params.execution_id));
      const page = await deps.executions.listToolCalls(params.execution_id, {
        limit: query.limit,
        afterSeq: decodeSeqCursor(query.cursor),
      });
      linkNext(ctx, page.nextAfterSeq === undefined ? undefined : encodeSeqCursor(page.nextAfterSeq));
      return { body: page.items };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/executions/{execution_id}',
    tags,
    auth: 'any',
    summary: 'Cancel an execution (idempotent)',
    description:
      'queued or running -> cancelled (a running agent notices within its poll interval and aborts the provider call); ' +
      'completed, failed or cancelled stay as they are. Answers 200 with the record either way. Owner or ADMIN; ' +
      "an AUDITOR may read but not cancel another user's execution (403); anyone else gets 404.",
    params: executionIdParamsSchema,
    responses: { 200: { description: 'The execution after the request.', schema: executionWithOwnerSchema } },
    async handler({ params, caller, deps }) {
      const asked = { kind: EXECUTION, id: params.execution_id, action: 'cancel' } as const;
      const summary = await requireOwnedResource(deps.repoAccess, caller, asked, await deps.executions.getSummary(params.execution_id));
      // A cancelled agent session covers nothing: the check runs it may have made green are re-posted.
      const execution = await cancelExecution(deps, summary);
      if (!execution) throw new NotFoundError('Execution', params.execution_id);
      deps.logger.info({ execution_id: execution.id, status: execution.status, by: caller.user.id }, 'execution cancel requested');
      return { body: await withOwnerName(deps.accounts, execution) };
    },
  }),
];
