import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { ProviderName } from '../../../core/agent/provider.js';
import { openSecret, sealSecret } from '../../../core/executions/seal-secret.js';
import type { DroppedPermission, StageRole } from '../../../core/policies/policy.js';
import { OUTPUT_SUMMARY_CHARS, UNFINISHED_WORKFLOW, type NewWorkflow, type Workflow } from '../../../core/workflows/workflow.js';
import type { WorkflowStore } from '../../../core/workflows/workflow-store.js';
import { enqueue } from '../../job-queue.js';
import { keysetPage } from '../../keyset-page.js';
import { readInOneSnapshot } from '../../read-in-one-snapshot.js';
import type { WorkflowRow, WorkflowStageRow } from '../../tables.js';
import { executionInsertValues, UNFINISHED } from '../executions/postgres-execution-store.js';
import { toWorkflow, type StageRowWithSummary } from './workflow-rows.js';

/** The job key of a workflow's orchestration: at most one such job exists at a time. */
export const workflowJobKey = (workflowId: string) => `run_workflow:${workflowId}`;

/** Associated data of a stage's sealed key: the ciphertext opens only on this stage of this workflow. */
const keyContext = (workflowId: string, stageId: string) => `workflow:${workflowId}:stage:${stageId}`;

const unfinished = (workflow: WorkflowRow) => (UNFINISHED_WORKFLOW as readonly string[]).includes(workflow.status);

/** Stage statuses that are not yet final. */
const OPEN_STAGES = ['pending', 'running'];

async function stagesOf(db: Knex, workflowIds: string[]): Promise<Map<string, StageRowWithSummary[]>> {
  const rows: StageRowWithSummary[] =
    workflowIds.length === 0
      ? []
      : await db('workflow_stages as s')
          .leftJoin('executions as e', 'e.id', 's.execution_id')
          .whereIn('s.workflow_id', workflowIds)
          .select('s.*', db.raw('left(e.output, ?) AS output_summary', [OUTPUT_SUMMARY_CHARS]))
          .orderBy([{ column: 's.workflow_id' }, { column: 's.position' }]);
  const byWorkflow = new Map<string, StageRowWithSummary[]>();
  for (const row of rows) byWorkflow.set(row.workflow_id, [...(byWorkflow.get(row.workflow_id) ?? []), row]);
  return byWorkflow;
}

/** A workflow and its stages, read in one snapshot (a stage's end and its workflow's close commit together). */
async function loadWorkflow(db: Knex, id: string): Promise<Workflow | null> {
  return readInOneSnapshot(db, async (trx) => {
    const row = await trx<WorkflowRow>('workflows').where({ id }).first();
    return row ? toWorkflow(row, (await stagesOf(trx, [id])).get(id) ?? []) : null;
  });
}

/** Locks the workflow row (workflows, then stages, then executions: every transaction here takes them in that order). */
async function lockWorkflow(trx: Knex.Transaction, id: string): Promise<WorkflowRow | undefined> {
  return trx<WorkflowRow>('workflows').where({ id }).forUpdate().first();
}

/** Every still-pending stage of the workflow becomes `to`, its key erased. */
function closePendingStages(trx: Knex.Transaction, workflowId: string, to: string) {
  return trx('workflow_stages')
    .where({ workflow_id: workflowId, status: 'pending' })
    .update({ status: to, api_key_ciphertext: null, finished_at: trx.fn.now() });
}

/** Workflows in PostgreSQL; stage key overrides are sealed with `secretKey`. */
export function createWorkflowStore(db: Knex, secretKey: Buffer): WorkflowStore {
  return {
    async create(input: NewWorkflow) {
      const id = randomUUID();
      await db.transaction(async (trx) => {
        await trx('workflows').insert({
          id,
          owner_id: input.owner_id,
          name: input.name,
          description: input.description,
          repo_root: input.repo_root,
          commit_sha: input.commit_sha,
        });
        await trx('workflow_stages').insert(
          input.stages.map((stage, position) => ({
            workflow_id: id,
            position,
            stage_id: stage.id,
            name: stage.name,
            task: stage.task,
            stage_role: stage.stage_role,
            policy_name: stage.policy.name,
            policy_version: stage.policy.version,
            policy_digest: stage.policy.digest,
            budget_cents: stage.budget_cents,
            provider: stage.provider,
            model: stage.model,
            permissions: JSON.stringify(stage.permissions),
            dropped_permissions: JSON.stringify(stage.dropped_permissions),
            upstream_stage_ids: JSON.stringify(stage.upstream_stage_ids),
            api_key_override: stage.api_key !== undefined,
            api_key_ciphertext: stage.api_key !== undefined ? sealSecret(secretKey, stage.api_key, keyContext(id, stage.id)) : null,
          })),
        );
        // Same transaction: a queued workflow always has its orchestration job.
        await enqueue(trx, 'run_workflow', { workflow_id: id }, workflowJobKey(id));
      });
      return (await loadWorkflow(db, id))!;
    },

    get: (id) => loadWorkflow(db, id),

    async list({ ownerId, status, page, repoRoots }) {
      return readInOneSnapshot(db, async (trx) => {
        const query = trx<WorkflowRow>('workflows').select('*');
        if (ownerId) query.where({ owner_id: ownerId });
        if (status) query.where({ status });
        if (repoRoots) query.where((q) => q.whereNull('repo_root').orWhereIn('repo_root', repoRoots));
        const rows = await keysetPage(query, page, (row: WorkflowRow) => row);
        const stages = await stagesOf(
          trx,
          rows.items.map((r) => r.id),
        );
        return { items: rows.items.map((row) => toWorkflow(row, stages.get(row.id) ?? [])), next: rows.next };
      });
    },

    async cancel(id) {
      const cancelled = await db.transaction(async (trx) => {
        const workflow = await lockWorkflow(trx, id);
        if (!workflow) return null;
        if (!unfinished(workflow)) return [];
        await trx('workflows').where({ id }).update({ status: 'cancelled', finished_at: trx.fn.now() });
        const stages: Pick<WorkflowStageRow, 'stage_id' | 'execution_id' | 'position'>[] = await trx('workflow_stages')
          .where({ workflow_id: id })
          .whereIn('status', OPEN_STAGES)
          .update({ status: 'cancelled', api_key_ciphertext: null, finished_at: trx.fn.now() })
          .returning(['stage_id', 'execution_id', 'position']);
        const executionIds = stages.flatMap((s) => (s.execution_id ? [s.execution_id] : []));
        // The running agent sees this at its next poll and aborts the provider request.
        if (executionIds.length > 0)
          await trx('executions')
            .whereIn('id', executionIds)
            .whereIn('status', UNFINISHED)
            .update({ status: 'cancelled', finished_at: trx.fn.now(), api_key_ciphertext: null });
        return stages.sort((a, b) => a.position - b.position).map((s) => s.stage_id);
      });
      if (cancelled === null) return null;
      return { workflow: (await loadWorkflow(db, id))!, cancelled_stage_ids: cancelled };
    },

    async start(id) {
      const rows = await db('workflows')
        .where({ id })
        .whereIn('status', UNFINISHED_WORKFLOW)
        .update({ status: 'running', started_at: db.raw('coalesce(started_at, now())') })
        .returning('id');
      return rows.length > 0;
    },

    async startStage(workflowId, stageId, upstreamExecutionIds) {
      return db.transaction(async (trx) => {
        const workflow = await lockWorkflow(trx, workflowId);
        if (workflow?.status !== 'running') return null;
        const stage = await trx<WorkflowStageRow>('workflow_stages')
          .where({ workflow_id: workflowId, stage_id: stageId })
          .forUpdate()
          .first();
        if (stage?.status !== 'pending') return null;
        const executionId = randomUUID();
        const apiKey = stage.api_key_ciphertext
          ? openSecret(secretKey, stage.api_key_ciphertext, keyContext(workflowId, stageId))
          : undefined;
        await trx('executions').insert(
          executionInsertValues(
            executionId,
            {
              owner_id: workflow.owner_id,
              workflow_id: workflowId,
              stage_id: stageId,
              task: stage.task,
              policy: { name: stage.policy_name, version: stage.policy_version, digest: stage.policy_digest },
              stage_role: stage.stage_role as StageRole,
              permissions: stage.permissions,
              dropped_permissions: stage.dropped_permissions as DroppedPermission[],
              budget_cents: stage.budget_cents,
              provider: stage.provider as ProviderName,
              model: stage.model,
              api_key: apiKey,
              upstream_execution_ids: upstreamExecutionIds,
              repo_root: workflow.repo_root,
              commit_sha: workflow.commit_sha,
            },
            secretKey,
          ),
        );
        // The key now lives (sealed to the execution) only as long as the run; the stage keeps none.
        await trx('workflow_stages')
          .where({ workflow_id: workflowId, stage_id: stageId })
          .update({ status: 'running', execution_id: executionId, api_key_ciphertext: null, started_at: trx.fn.now() });
        return executionId;
      });
    },

    async transitionStage(workflowId, stageId, change, close) {
      return db.transaction(async (trx) => {
        const workflow = await lockWorkflow(trx, workflowId);
        if (!workflow) return false;
        const moved = await trx('workflow_stages')
          .where({ workflow_id: workflowId, stage_id: stageId })
          .whereIn('status', change.from)
          .update({
            status: change.to,
            ...(change.blocked_reasons ? { blocked_reasons: JSON.stringify(change.blocked_reasons) } : {}),
            api_key_ciphertext: null,
            ...(OPEN_STAGES.includes(change.to) ? {} : { finished_at: trx.fn.now() }),
          });
        if (moved === 0) return false;
        if (close && unfinished(workflow)) {
          await trx('workflows').where({ id: workflowId }).update({ status: close.status, finished_at: trx.fn.now() });
          await closePendingStages(trx, workflowId, close.laterStages);
        }
        return true;
      });
    },

    async finish(workflowId, close) {
      return db.transaction(async (trx) => {
        const workflow = await lockWorkflow(trx, workflowId);
        if (!workflow || !unfinished(workflow)) return false;
        await trx('workflows').where({ id: workflowId }).update({ status: close.status, finished_at: trx.fn.now() });
        await closePendingStages(trx, workflowId, close.laterStages);
        return true;
      });
    },
  };
}
