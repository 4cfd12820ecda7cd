import type { Knex } from 'knex';
import type { ExecutionJournal, RunState } from '../../core/agent/journal.js';
import type { ChatMessage } from '../../core/agent/provider.js';
import { NotFoundError } from '../../core/errors.js';
import { openSecret } from '../../core/executions/seal-secret.js';
import type { PolicyStore } from '../../core/policies/policy.js';
import type { ArtifactRow, CertificateRow, ExecutionMessageRow, ExecutionRow } from '../tables.js';
import { certificateValues, toArtifact } from './execution-rows.js';
import { loadExecution, UNFINISHED } from './execution-store.js';

// A step is recorded only while the execution has no verdict: a completed or failed run is
// certified over exactly its recorded entries. A cancelled one still takes the step in flight
// when it was cancelled (that step really happened; no execution certificate covers it).
const OPEN = `status NOT IN ('completed', 'failed')`;

/** The next transcript position of execution $1, for an insert into execution_messages. */
const NEXT_IDX = `coalesce((SELECT max(idx) FROM execution_messages WHERE execution_id = $1), -1) + 1`;

// One statement, so one round trip and atomic without BEGIN/COMMIT. The UPDATE locks the row
// (a concurrent cancel or finish is waited for and re-checked); status comes back either way.
// $1 execution id, $2 cost in cents, $3 the assistant message.
const RECORD_TURN = `
WITH execution AS (
  UPDATE executions SET cost_cents = cost_cents + $2 WHERE id = $1 AND ${OPEN} RETURNING id, status
), message AS (
  INSERT INTO execution_messages (execution_id, idx, message) SELECT id, ${NEXT_IDX}, $3::jsonb FROM execution
)
SELECT coalesce((SELECT status FROM execution), (SELECT status FROM executions WHERE id = $1)) AS status`;

// One statement: the entry keyed by (execution_id, seq) feeds its answer, certificate and
// artifact, so a replayed seq inserts nothing at all. FOR SHARE waits out a concurrent finish.
// $1 execution id, then as JSON: $2 the entry, $3 the answer, $4 the certificate, $5 the artifact.
const RECORD_TOOL_CALL = `
WITH execution AS (
  SELECT id, status FROM executions WHERE id = $1 FOR SHARE
), call AS (
  INSERT INTO tool_calls (execution_id, seq, call_id, tool, arguments, capability, verdict, reason, certificate_id, result_digest, output, duration_ms, created_at)
  SELECT execution.id, e.seq, e.call_id, e.tool, e.arguments, e.capability, e.verdict, e.reason, e.certificate_id, e.result_digest, e.output, e.duration_ms, e.created_at
  FROM execution, jsonb_populate_record(NULL::tool_calls, $2::jsonb) e WHERE execution.${OPEN}
  ON CONFLICT (execution_id, seq) DO NOTHING
  RETURNING execution_id, seq
), answer AS (
  INSERT INTO execution_messages (execution_id, idx, message) SELECT execution_id, ${NEXT_IDX}, $3::jsonb FROM call
), certificate AS (
  INSERT INTO certificates (id, execution_id, kind, theorem, plan_hash, verified_properties, prover, issued_at, digest, envelope)
  SELECT c.id, call.execution_id, c.kind, c.theorem, c.plan_hash, c.verified_properties, c.prover, c.issued_at, c.digest, c.envelope
  FROM call, jsonb_populate_record(NULL::certificates, $4::jsonb) c WHERE c.id IS NOT NULL
), artifact AS (
  INSERT INTO artifacts (execution_id, seq, kind, name, content, digest, approved_for_release)
  SELECT call.execution_id, call.seq, a.kind, a.name, a.content, a.digest, a.approved_for_release
  FROM call, jsonb_populate_record(NULL::artifacts, $5::jsonb) a WHERE a.kind IS NOT NULL
)
SELECT (SELECT status FROM execution) AS status`;

/**
 * How long the status a step's write returned stands in for the cancellation check that
 * follows the step. The runtime checks right after recording (microseconds later), so this
 * only bounds staleness if something stalls in between; polls during a provider call read.
 */
const STEP_STATUS_REUSE_MS = 100;

/**
 * Runs a named (prepared: parsed and planned once per connection) statement on a pooled
 * connection straight through pg. On the per-call path knex's raw query layer costs about
 * half a round trip (bench/governance.ts); the pool, its timeouts and its checks stay knex's.
 */
async function stepStatement(db: Knex, name: string, text: string, values: unknown[]): Promise<string | null> {
  const connection = await db.client.acquireConnection();
  try {
    const { rows } = await connection.query({ name, text, values });
    return rows[0]?.status ?? null;
  } finally {
    await db.client.releaseConnection(connection);
  }
}

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
 * The run journal in PostgreSQL. Each step is one statement (one round trip, atomic); tool
 * calls are keyed by (execution_id, seq), so a resumed run that replays a recorded step changes
 * nothing. The cancellation check right after a step reuses the status that step's write
 * returned instead of reading it again; every other check (the polls during a provider call)
 * reads the database.
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
      const rows = await db('executions').where({ id: executionId }).whereIn('status', UNFINISHED)
        .update({ status: 'running', started_at: db.raw('coalesce(started_at, now())') }).returning('id');
      return rows.length > 0;
    },

    async recordTurn(executionId, assistant, costCents) {
      const values = [executionId, costCents, JSON.stringify(assistant)];
      stepStatus.seen(executionId, await stepStatement(db, 'journal_record_turn', RECORD_TURN, values));
    },

    async recordToolCall(executionId, entry, answer, certificate, artifact) {
      const values = [executionId, JSON.stringify(entry), JSON.stringify(answer), certificate && JSON.stringify(certificate), artifact && JSON.stringify(artifact)];
      stepStatus.seen(executionId, await stepStatement(db, 'journal_record_tool_call', RECORD_TOOL_CALL, values));
    },

    async finish(executionId, outcome) {
      stepStatus.take(executionId); // an ended run checks no more: drop its last step's status
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
      const seen = stepStatus.take(executionId);
      const status = seen !== undefined ? seen : (await db<ExecutionRow>('executions').where({ id: executionId }).first('status'))?.status ?? null;
      return status === null || status === 'cancelled';
    },
  };
}
