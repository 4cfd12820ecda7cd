import type { Knex } from 'knex';
import type { ExecutionJournal, RunState } from '../../../core/agent/journal.js';
import type { ChatMessage } from '../../../core/agent/provider.js';
import { NotFoundError } from '../../../core/errors.js';
import { openSecret } from '../../../core/executions/seal-secret.js';
import type { PolicyStore } from '../../../core/policies/policy.js';
import type { ArtifactRow, CertificateRow, ExecutionMessageRow, ExecutionRow } from '../../tables.js';
import { certificateValues, toArtifact } from '../executions/execution-rows.js';
import { loadExecution, UNFINISHED } from '../executions/postgres-execution-store.js';
import { recordJournalStep } from './record-journal-step.js';

/**
 * How long the status a step's write returned stands in for the cancellation check that
 * follows the step. The runtime checks right after recording (microseconds later), so this
 * only bounds staleness if something stalls in between; polls during a provider call read.
 */
const STEP_STATUS_REUSE_MS = 100;

/** Runs a worker may leave without a last check (a crash after a step); the oldest go first. */
const MAX_STEP_STATUSES = 1000;

/** The status each execution's latest step write returned: taken once, and only while fresh. */
function stepStatuses() {
  const latest = new Map<string, { status: string | null; at: number }>();
  return {
    seen(executionId: string, status: string | null) {
      latest.delete(executionId);
      latest.set(executionId, { status, at: performance.now() });
      if (latest.size > MAX_STEP_STATUSES) latest.delete(latest.keys().next().value!);
    },
    /** undefined when there is no fresh one: the caller reads the database. */
    take(executionId: string): string | null | undefined {
      const entry = latest.get(executionId);
      latest.delete(executionId);
      return entry && performance.now() - entry.at <= STEP_STATUS_REUSE_MS ? entry.status : undefined;
    },
  };
}

async function upstreamOf(db: Knex, ids: string[]): Promise<Pick<RunState, 'upstreamArtifacts' | 'upstreamCertificateDigests'>> {
  if (ids.length === 0) return { upstreamArtifacts: [], upstreamCertificateDigests: [] };
  const [rows, artifacts, certificates] = await Promise.all([
    db<ExecutionRow>('executions').whereIn('id', ids).select('id', 'stage_id'),
    db<ArtifactRow>('artifacts')
      .whereIn('execution_id', ids)
      .orderBy([{ column: 'seq' }, { column: 'created_at' }]),
    db<CertificateRow>('certificates').whereIn('execution_id', ids).where({ kind: 'execution' }).orderBy('ordinal'),
  ]);
  const stageOf = new Map(rows.map((r) => [r.id, r.stage_id]));
  return {
    // A review that did not approve the release is not an approved artifact.
    upstreamArtifacts: ids
      .filter((id) => stageOf.has(id))
      .map((id) => ({
        execution_id: id,
        stage_id: stageOf.get(id) ?? null,
        artifacts: artifacts.filter((a) => a.execution_id === id && a.approved_for_release !== false).map(toArtifact),
      })),
    upstreamCertificateDigests: certificates.map((c) => ({ execution_id: c.execution_id!, digest: c.digest })),
  };
}

/**
 * The run journal in PostgreSQL. Each step is one statement (one round trip, atomic), a turn
 * carried by its first tool call included; tool calls are keyed by (execution_id, seq), so a
 * resumed run that replays a recorded step changes nothing. The cancellation check right after
 * a step reuses the status that step's write returned instead of reading it again; every other
 * check (the polls during a provider call) reads the database.
 */
export function createExecutionJournal(db: Knex, secretKey: Buffer, policies: Pick<PolicyStore, 'get'>): ExecutionJournal {
  const stepStatus = stepStatuses();
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
      const rows = await db('executions')
        .where({ id: executionId })
        .whereIn('status', UNFINISHED)
        .update({ status: 'running', started_at: db.raw('coalesce(started_at, now())') })
        .returning('id');
      return rows.length > 0;
    },

    async recordTurn(executionId, assistant, costCents) {
      stepStatus.seen(executionId, await recordJournalStep(db, executionId, { turn: { assistant, costCents } }));
    },

    async recordToolCall(executionId, entry, answer, certificate, artifact, turn) {
      stepStatus.seen(executionId, await recordJournalStep(db, executionId, { call: { entry, answer, certificate, artifact }, turn }));
    },

    async finish(executionId, outcome) {
      stepStatus.take(executionId); // an ended run checks no more: drop its last step's status
      await db.transaction(async (trx) => {
        const ended = await trx('executions')
          .where({ id: executionId })
          .whereIn('status', UNFINISHED)
          .update({
            status: outcome.status,
            verdict: outcome.verdict,
            output: outcome.output,
            error: outcome.error ? JSON.stringify(outcome.error) : null,
            violations: JSON.stringify(outcome.violations),
            finished_at: trx.fn.now(),
            api_key_ciphertext: null,
          })
          .returning('id');
        if (ended.length > 0 && outcome.certificate) await trx('certificates').insert(certificateValues(outcome.certificate, executionId));
        // Ended meanwhile (cancelled): write anyway. A commit that writes nothing does not wait
        // for the WAL flush, and the run's last turn may still need one (record-journal-step.ts).
        if (ended.length === 0)
          await trx('executions')
            .where({ id: executionId })
            .update({ status: trx.ref('status') });
      });
    },

    async isCancelled(executionId) {
      const seen = stepStatus.take(executionId);
      const status =
        seen !== undefined ? seen : ((await db<ExecutionRow>('executions').where({ id: executionId }).first('status'))?.status ?? null);
      return status === null || status === 'cancelled';
    },
  };
}
