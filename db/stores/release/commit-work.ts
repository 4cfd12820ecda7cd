import type { Knex } from 'knex';
import type { BoundExecutionFacts } from '../../../core/workflows/judge-bound-workflows.js';
import { sendSql } from '../../send-sql.js';

/** One execution bound to the commit as BOUND_EXECUTIONS reports it: positional, see there. */
export type BoundExecutionTuple = [
  id: string,
  owner_id: string,
  workflow_id: string | null,
  stage_id: string | null,
  stage_role: string,
  status: BoundExecutionFacts['status'],
  verdict: BoundExecutionFacts['verdict'],
  certificate_id: string | null,
  certificate_sha256: string | null,
  upstreams: BoundExecutionFacts['upstreams'],
];

/**
 * The executions of commit ($1 repo_root, $2 commit_sha) as ONE json array of positional
 * tuples (keys would be most of the bytes), oldest first: each with its newest execution
 * certificate, named by the SHA-256 of its envelope's stored JSON text (the verification
 * cache's key: only a miss fetches and verifies the envelope itself), and, for release stages
 * (the only ones whose admission core/workflows/judge-bound-workflows.ts judges), the state of
 * every upstream it names. Both lookups are served from indexes (migration 012):
 * the executions by commit with the columns read here, the certificate with its digest. Each
 * upstream is looked up by its id (LIMIT 1 keeps the lookup a nested index probe: joined
 * plainly, a small table's statistics made PostgreSQL hash the whole executions table).
 */
export const BOUND_EXECUTIONS = `(
SELECT coalesce(json_agg(json_build_array(e.id, e.owner_id, e.workflow_id, e.stage_id, e.stage_role, e.status, e.verdict, c.id, c.envelope_sha256,
    CASE WHEN e.stage_role = 'release' THEN (
      SELECT coalesce(json_agg(json_build_object('id', up.id, 'stage_id', u.stage_id, 'status', u.status, 'verdict', u.verdict,
        'approved', EXISTS (SELECT 1 FROM artifacts a WHERE a.execution_id = u.id AND a.kind = 'review' AND a.approved_for_release)
          AND NOT EXISTS (SELECT 1 FROM artifacts a WHERE a.execution_id = u.id AND a.kind = 'review' AND a.approved_for_release IS NOT TRUE))), '[]'::json)
      FROM jsonb_array_elements_text(e.upstream_execution_ids) AS up(id)
      LEFT JOIN LATERAL (SELECT x.id, x.stage_id, x.status, x.verdict FROM executions x WHERE x.id = up.id::uuid LIMIT 1) u ON true
    ) END) ORDER BY e.created_at, e.id), '[]'::json)
FROM executions e
LEFT JOIN LATERAL (SELECT c.id, c.envelope_sha256 FROM certificates c
  WHERE c.execution_id = e.id AND c.kind = 'execution' ORDER BY c.ordinal DESC LIMIT 1) c ON true
WHERE e.repo_root = $1 AND e.commit_sha = $2)`;

/** The workflow records bound to commit ($1, $2), each with its stages in order, as ONE json array. */
export const BOUND_WORKFLOW_RECORDS = `(
SELECT coalesce(json_agg(json_build_object('id', w.id, 'owner_id', w.owner_id, 'status', w.status,
    'stages', (SELECT coalesce(json_agg(json_build_object('stage_id', s.stage_id, 'stage_role', s.stage_role, 'status', s.status,
        'blocked_reasons', s.blocked_reasons) ORDER BY s.position), '[]'::json) FROM workflow_stages s WHERE s.workflow_id = w.id)
  ) ORDER BY w.created_at, w.id), '[]'::json)
FROM workflows w WHERE w.repo_root = $1 AND w.commit_sha = $2)`;

// The stored envelopes of certificates this process has not verified yet.
const CERTIFICATE_ENVELOPES = {
  name: 'release_certificate_envelopes',
  text: 'SELECT id, envelope::text AS envelope FROM certificates WHERE id = ANY($1::uuid[])',
};

/** One BOUND_EXECUTIONS tuple as the execution's facts. */
export function toBoundExecutionFacts([
  id,
  owner_id,
  workflow_id,
  stage_id,
  stage_role,
  status,
  verdict,
  certificateId,
  sha256,
  upstreams,
]: BoundExecutionTuple): BoundExecutionFacts {
  const certificate = certificateId === null ? null : { id: certificateId, sha256: sha256! };
  return { id, owner_id, workflow_id, stage_id, stage_role, status, verdict, certificate, upstreams };
}

/** The stored envelopes (JSON text, as stored) of these certificates; one gone meanwhile is absent. */
export function certificateEnvelopes(db: Knex, ids: string[]): Promise<{ id: string; envelope: string }[]> {
  return sendSql<{ id: string; envelope: string }>(db, CERTIFICATE_ENVELOPES, [ids]);
}
