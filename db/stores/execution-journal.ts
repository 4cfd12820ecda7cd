import type { Knex } from 'knex';
import type { ExecutionJournal, RunState } from '../../core/agent/journal.js';
import type { ChatMessage } from '../../core/agent/provider.js';
import { NotFoundError } from '../../core/errors.js';
import { openSecret } from '../../core/executions/seal-secret.js';
import type { PolicyStore } from '../../core/policies/policy.js';
import type { ArtifactRow, CertificateRow, ExecutionMessageRow, ExecutionRow } from '../tables.js';
import { certificateValues, toArtifact } from './execution-rows.js';
import { loadExecution, UNFINISHED } from './execution-store.js';

/** Appends `message` after the execution's last stored one, inside `trx`. */
async function appendMessage(trx: Knex.Transaction, executionId: string, message: ChatMessage): Promise<void> {
  await trx.raw(
    `INSERT INTO execution_messages (execution_id, idx, message)
     SELECT ?, coalesce(max(idx), -1) + 1, ?::jsonb FROM execution_messages WHERE execution_id = ?`,
    [executionId, JSON.stringify(message), executionId],
  );
}

async function upstreamOf(db: Knex, ids: string[]): Promise<Pick<RunState, 'upstreamArtifacts' | 'upstreamCertificateDigests'>> {
  if (ids.length === 0) return { upstreamArtifacts: [], upstreamCertificateDigests: [] };
  const [rows, artifacts, certificates] = await Promise.all([
    db<ExecutionRow>('executions').whereIn('id', ids).select('id', 'stage_id'),
    db<ArtifactRow>('artifacts').whereIn('execution_id', ids).orderBy([{ column: 'seq' }, { column: 'created_at' }]),
    db<CertificateRow>('certificates').whereIn('execution_id', ids).where({ kind: 'execution' }).orderBy('ordinal'),
  ]);
  const stageOf = new Map(rows.map((r) => [r.id, r.stage_id]));
  return {
    // A review that did not approve the release is not an approved artifact.
    upstreamArtifacts: ids.filter((id) => stageOf.has(id)).map((id) => ({
      execution_id: id,
      stage_id: stageOf.get(id) ?? null,
      artifacts: artifacts.filter((a) => a.execution_id === id && a.approved_for_release !== false).map(toArtifact),
    })),
    upstreamCertificateDigests: certificates.map((c) => ({ execution_id: c.execution_id!, digest: c.digest })),
  };
}

/**
 * The run journal in PostgreSQL. Each step is one transaction; tool calls are keyed by
 * (execution_id, seq), so a resumed run that replays a recorded step changes nothing.
 */
export function createExecutionJournal(db: Knex, secretKey: Buffer, policies: Pick<PolicyStore, 'get'>): ExecutionJournal {
  return {
    async load(executionId) {
      const [execution, row, messages] = await Promise.all([
        loadExecution(db, executionId),
        db<ExecutionRow>('executions').where({ id: executionId }).first('api_key_ciphertext'),
        db<ExecutionMessageRow>('execution_messages').where({ execution_id: executionId }).orderBy('idx'),
      ]);
      if (!execution || !row) throw new NotFoundError('Execution', executionId);
      const policy = await policies.get(execution.policy.name, execution.policy.version);
      if (!policy) throw new Error(`Policy ${execution.policy.name} v${execution.policy.version} of execution ${executionId} is missing.`);
      return {
        execution,
        policy,
        apiKeyOverride: row.api_key_ciphertext ? openSecret(secretKey, row.api_key_ciphertext, executionId) : undefined,
        transcript: [{ role: 'user', content: execution.task }, ...messages.map((m) => m.message as unknown as ChatMessage)],
        ...(await upstreamOf(db, execution.upstream_execution_ids)),
      };
    },

    async start(executionId) {
      const rows = await db('executions').where({ id: executionId }).whereIn('status', UNFINISHED)
        .update({ status: 'running', started_at: db.raw('coalesce(started_at, now())') }).returning('id');
      return rows.length > 0;
    },

    async recordTurn(executionId, assistant, costCents) {
      await db.transaction(async (trx) => {
        await appendMessage(trx, executionId, assistant);
        await trx('executions').where({ id: executionId }).increment('cost_cents', costCents);
      });
    },

    async recordToolCall(executionId, entry, answer, certificate, artifact) {
      await db.transaction(async (trx) => {
        // The primary key (execution_id, seq) makes a replayed step a no-op, even under a race.
        const inserted = await trx('tool_calls').insert({
          execution_id: executionId,
          seq: entry.seq,
          call_id: entry.call_id,
          tool: entry.tool,
          arguments: JSON.stringify(entry.arguments ?? null),
          capability: entry.capability,
          verdict: entry.verdict,
          reason: entry.reason,
          certificate_id: entry.certificate_id,
          result_digest: entry.result_digest,
          output: entry.output,
          duration_ms: entry.duration_ms,
          created_at: entry.created_at,
        }).onConflict(['execution_id', 'seq']).ignore().returning('seq');
        if (inserted.length === 0) return;
        await appendMessage(trx, executionId, answer);
        if (certificate) await trx('certificates').insert(certificateValues(certificate, executionId));
        if (artifact) {
          await trx('artifacts').insert({
            execution_id: executionId, seq: entry.seq, kind: artifact.kind, name: artifact.name, content: artifact.content,
            digest: artifact.digest, approved_for_release: artifact.approved_for_release ?? null,
          });
        }
      });
    },

    async finish(executionId, outcome) {
      await db.transaction(async (trx) => {
        const ended = await trx('executions').where({ id: executionId }).whereIn('status', UNFINISHED).update({
          status: outcome.status,
          verdict: outcome.verdict,
          output: outcome.output,
          error: outcome.error ? JSON.stringify(outcome.error) : null,
          violations: JSON.stringify(outcome.violations),
          finished_at: trx.fn.now(),
          api_key_ciphertext: null,
        }).returning('id');
        if (ended.length > 0 && outcome.certificate) await trx('certificates').insert(certificateValues(outcome.certificate, executionId));
      });
    },

    async isCancelled(executionId) {
      const row = await db<ExecutionRow>('executions').where({ id: executionId }).first('status');
      return !row || row.status === 'cancelled';
    },
  };
}
