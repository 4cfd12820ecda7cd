import type { Knex } from 'knex';
import type { BoundExecutionFacts, BoundWorkflowFacts } from '../../core/workflows/bound-workflows.js';
import { boundWorkflows } from '../../core/workflows/bound-workflows.js';
import type { BoundWorkflow } from '../../core/release/bound-workflow.js';
import { sendSql } from '../send-sql.js';
import type { CachingVerifier } from './release-caching-verifier.js';

/** One execution bound to the commit, as BOUND_EXECUTIONS aggregates it. */
export type BoundExecutionJson = Omit<BoundExecutionFacts, 'certificate_valid'> & {
  /** The newest execution certificate: its id and the SHA-256 (hex) of its envelope's JSON text as stored; or null. */
  certificate: { id: string; sha256: string } | null;
};

/**
 * The executions of commit ($1 repo_root, $2 commit_sha) as ONE json array, oldest first: each
 * with its newest execution certificate, named by the SHA-256 of its envelope's stored JSON
 * text (the verification cache's key: only a miss fetches and verifies the envelope itself),
 * and, for release stages, the state of every upstream it names.
 */
export const BOUND_EXECUTIONS = `(
SELECT coalesce(json_agg(json_build_object('id', e.id, 'owner_id', e.owner_id, 'workflow_id', e.workflow_id, 'stage_id', e.stage_id,
    'stage_role', e.stage_role, 'status', e.status, 'verdict', e.verdict,
    'certificate', (SELECT json_build_object('id', c.id, 'sha256', encode(sha256(convert_to(c.envelope::text, 'UTF8')), 'hex'))
      FROM certificates c WHERE c.execution_id = e.id AND c.kind = 'execution' ORDER BY c.ordinal DESC LIMIT 1),
    'upstreams', CASE WHEN e.stage_role = 'release' THEN (
      SELECT coalesce(json_agg(json_build_object('id', up.id, 'stage_id', u.stage_id, 'status', u.status, 'verdict', u.verdict,
        'approved', EXISTS (SELECT 1 FROM artifacts a WHERE a.execution_id = u.id AND a.kind = 'review' AND a.approved_for_release))), '[]'::json)
      FROM jsonb_array_elements_text(e.upstream_execution_ids) AS up(id) LEFT JOIN executions u ON u.id = up.id::uuid
    ) END) ORDER BY e.created_at, e.id), '[]'::json)
FROM executions e WHERE e.repo_root = $1 AND e.commit_sha = $2)`;

/** The workflow records bound to commit ($1, $2), each with its stages in order, as ONE json array. */
export const BOUND_WORKFLOW_RECORDS = `(
SELECT coalesce(json_agg(json_build_object('id', w.id, 'owner_id', w.owner_id, 'status', w.status,
    'stages', (SELECT json_agg(json_build_object('stage_id', s.stage_id, 'stage_role', s.stage_role, 'status', s.status,
        'blocked_reasons', s.blocked_reasons) ORDER BY s.position) FROM workflow_stages s WHERE s.workflow_id = w.id)
  ) ORDER BY w.created_at, w.id), '[]'::json)
FROM workflows w WHERE w.repo_root = $1 AND w.commit_sha = $2)`;

// The envelopes whose verification is not remembered (a certificate new to this process).
const CERTIFICATE_ENVELOPES = {
  name: 'release_certificate_envelopes',
  text: 'SELECT id, envelope::text AS envelope FROM certificates WHERE id = ANY($1::uuid[])',
};

/**
 * Whether each execution's certificate verifies: remembered by its envelope's digest, else
 * fetched and verified (and remembered by the digest of the text actually verified, so an
 * envelope altered in between is judged as fetched). A certificate gone meanwhile is not valid.
 */
async function certificateValidity(db: Knex, executions: BoundExecutionJson[], verifier: CachingVerifier): Promise<Map<string, boolean>> {
  const valid = new Map<string, boolean>();
  const missing: string[] = [];
  for (const { certificate } of executions) {
    if (!certificate) continue;
    const known = verifier.rememberedBySha256(certificate.sha256);
    if (known) valid.set(certificate.id, known.verified);
    else missing.push(certificate.id);
  }
  if (missing.length === 0) return valid;
  const rows = await sendSql<{ id: string; envelope: string }>(db, CERTIFICATE_ENVELOPES, [missing]);
  for (const id of missing) valid.set(id, false);
  for (const row of rows) valid.set(row.id, verifier.verifyJson(row.envelope).verified);
  return valid;
}

/** The bound workflows from what the commit-state statement read; the rules are core's (core/workflows/bound-workflows.ts). */
export async function toBoundWorkflows(
  db: Knex,
  executions: BoundExecutionJson[],
  workflows: BoundWorkflowFacts[],
  verifier: CachingVerifier,
): Promise<BoundWorkflow[]> {
  const valid = await certificateValidity(db, executions, verifier);
  return boundWorkflows(
    executions.map(({ certificate, ...facts }) => ({
      ...facts,
      certificate_valid: certificate === null ? null : valid.get(certificate.id)!,
    })),
    workflows,
  );
}
