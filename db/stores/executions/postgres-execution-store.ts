import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Execution } from '../../../core/executions/execution.js';
import type { ExecutionStore, NewExecution } from '../../../core/executions/execution-store.js';
import { sealSecret } from '../../../core/executions/seal-secret.js';
import { enqueue } from '../../job-queue.js';
import { keysetPage } from '../../keyset-page.js';
import { readInOneSnapshot } from '../../read-in-one-snapshot.js';
import type { ArtifactRow, CertificateRow, ExecutionRow, ToolCallCertificateRow, ToolCallRow } from '../../tables.js';
import { toExecution, toExecutionSummary, toToolCall } from './execution-rows.js';
import { incompleteHookCallRows } from '../hooks/postgres-hook-call-store.js';

export const UNFINISHED = ['queued', 'running'] as const;

/** The job key of an execution's run: at most one such job exists at a time. */
export const runJobKey = (executionId: string) => `run_execution:${executionId}`;

/** The full record (children in order), or null, read in one snapshot: a step and its certificate commit together. */
export async function loadExecution(db: Knex, id: string): Promise<Execution | null> {
  return readInOneSnapshot(db, async (trx) => {
    const row = await trx<ExecutionRow>('executions').where({ id }).first();
    if (!row) return null;
    const toolCalls = await trx<ToolCallRow>('tool_calls').where({ execution_id: id }).orderBy('seq');
    // Its tool calls' certificates in call order, then its execution certificate (issued last).
    const toolCallCertificates = await trx<ToolCallCertificateRow>('tool_call_certificates').where({ execution_id: id }).orderBy('seq');
    const certificates = await trx<CertificateRow>('certificates').where({ execution_id: id }).orderBy('ordinal');
    const artifacts = await trx<ArtifactRow>('artifacts')
      .where({ execution_id: id })
      .orderBy([{ column: 'seq' }, { column: 'created_at' }]);
    const execution = toExecution(row, toolCalls, [...toolCallCertificates, ...certificates], artifacts);
    // A coding agent's calls allowed by its pre hook whose post never came (docs/agent-hooks.md, "Records").
    const incomplete = row.kind === 'agent_session' ? await incompleteHookCallRows(trx, id) : [];
    if (incomplete.length === 0) return execution;
    return {
      ...execution,
      incomplete_tool_calls: incomplete.map((h) => ({
        call_id: h.call_id,
        tool: h.tool,
        arguments: h.arguments,
        capability: h.capability,
        agent_id: h.agent_id,
        requested_at: h.requested_at.toISOString(),
        completed: false as const,
      })),
    };
  });
}

/** Row values for a new execution; a key override is sealed to the row id. */
export function executionInsertValues(id: string, input: NewExecution, secretKey: Buffer) {
  return {
    id,
    owner_id: input.owner_id,
    workflow_id: input.workflow_id ?? null,
    stage_id: input.stage_id ?? null,
    task: input.task,
    status: 'queued',
    policy_name: input.policy.name,
    policy_version: input.policy.version,
    policy_digest: input.policy.digest,
    stage_role: input.stage_role,
    permissions: JSON.stringify(input.permissions),
    dropped_permissions: JSON.stringify(input.dropped_permissions),
    budget_cents: input.budget_cents,
    provider: input.provider,
    model: input.model,
    api_key_override: input.api_key !== undefined,
    // Bound to this row's id, so the ciphertext cannot be replayed onto another execution.
    api_key_ciphertext: input.api_key !== undefined ? sealSecret(secretKey, input.api_key, id) : null,
    upstream_execution_ids: JSON.stringify(input.upstream_execution_ids ?? []),
    repo_root: input.repo_root ?? null,
    commit_sha: input.commit_sha ?? null,
  };
}

/** Execution records in PostgreSQL; provider key overrides are sealed with `secretKey`. */
export function createExecutionStore(db: Knex, secretKey: Buffer): ExecutionStore {
  return {
    async create(input, { enqueue: queueRun = true } = {}) {
      const id = randomUUID();
      await db.transaction(async (trx) => {
        await trx('executions').insert(executionInsertValues(id, input, secretKey));
        // Same transaction: there is never a queued execution without its job, nor the reverse.
        if (queueRun) await enqueue(trx, 'run_execution', { execution_id: id }, runJobKey(id));
      });
      return (await loadExecution(db, id))!;
    },

    get: (id) => loadExecution(db, id),

    async getSummary(id) {
      const row = await db<ExecutionRow>('executions').where({ id }).first();
      return row ? toExecutionSummary(row) : null;
    },

    list({ ownerId, status, page, repoRoots }) {
      const query = db<ExecutionRow>('executions').select('*');
      if (ownerId) query.where({ owner_id: ownerId });
      if (status) query.where({ status });
      if (repoRoots) query.where((q) => q.whereNull('repo_root').orWhereIn('repo_root', repoRoots));
      return keysetPage(query, page, toExecutionSummary);
    },

    async listToolCalls(executionId, { limit, afterSeq }) {
      const query = db<ToolCallRow>('tool_calls').where({ execution_id: executionId });
      if (afterSeq !== undefined) query.where('seq', '>', afterSeq);
      const rows = await query.orderBy('seq').limit(limit + 1);
      const items = rows.slice(0, limit).map(toToolCall);
      return { items, nextAfterSeq: rows.length > limit ? items[items.length - 1]?.seq : undefined };
    },

    async cancel(id) {
      await db('executions')
        .where({ id })
        .whereIn('status', UNFINISHED)
        .update({ status: 'cancelled', finished_at: db.fn.now(), api_key_ciphertext: null });
      return loadExecution(db, id);
    },
  };
}
