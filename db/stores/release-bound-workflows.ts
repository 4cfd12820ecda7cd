import type { BoundExecutionFacts, BoundWorkflowFacts } from '../../core/workflows/bound-workflows.js';
import { boundWorkflows } from '../../core/workflows/bound-workflows.js';
import type { BoundWorkflow } from '../../core/release/bound-workflow.js';
import type { CachingVerifier } from './release-caching-verifier.js';

/** One execution bound to the commit, as BOUND_EXECUTIONS aggregates it. */
export type BoundExecutionJson = Omit<BoundExecutionFacts, 'certificate_valid'> & {
  /** The newest execution certificate's envelope as stored (JSON text), or null. */
  certificate: string | null;
};

/**
 * The executions of commit ($1 repo_root, $2 commit_sha) as ONE json array, oldest first: each
 * with its newest execution certificate (as text: the verification cache is keyed by it and
 * only a miss parses it) and, for release stages, the state of every upstream it names.
 */
export const BOUND_EXECUTIONS = `(
SELECT coalesce(json_agg(json_build_object('id', e.id, 'owner_id', e.owner_id, 'workflow_id', e.workflow_id, 'stage_id', e.stage_id,
    'stage_role', e.stage_role, 'status', e.status, 'verdict', e.verdict,
    'certificate', (SELECT c.envelope::text FROM certificates c WHERE c.execution_id = e.id AND c.kind = 'execution' ORDER BY c.ordinal DESC LIMIT 1),
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

/** The bound workflows from what the commit-state statement read; the rules are core's (core/workflows/bound-workflows.ts). */
export function toBoundWorkflows(
  executions: BoundExecutionJson[],
  workflows: BoundWorkflowFacts[],
  verifier: CachingVerifier,
): BoundWorkflow[] {
  return boundWorkflows(
    executions.map(({ certificate, ...facts }) => ({
      ...facts,
      certificate_valid: certificate === null ? null : verifier.verifyJson(certificate).verified,
    })),
    workflows,
  );
}
