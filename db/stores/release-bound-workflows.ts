import type { ExecutionStatus, Verdict } from '../../core/executions/execution.js';
import type { BoundExecution, BoundWorkflow } from '../../core/release/bound-workflow.js';
import type { CachingVerifier } from './release-caching-verifier.js';

/** One execution bound to the commit, as BOUND_EXECUTIONS aggregates it. */
export interface BoundExecutionJson {
  id: string;
  owner_id: string;
  workflow_id: string | null;
  stage_id: string | null;
  stage_role: string;
  status: ExecutionStatus;
  verdict: Verdict | null;
  /** The newest execution certificate's envelope as stored (JSON text), or null. */
  certificate: string | null;
  upstreams: { id: string; status: string | null; verdict: string | null; approved: boolean }[] | null;
}

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
      SELECT coalesce(json_agg(json_build_object('id', up.id, 'status', u.status, 'verdict', u.verdict,
        'approved', EXISTS (SELECT 1 FROM artifacts a WHERE a.execution_id = u.id AND a.kind = 'review' AND a.approved_for_release))), '[]'::json)
      FROM jsonb_array_elements_text(e.upstream_execution_ids) AS up(id) LEFT JOIN executions u ON u.id = up.id::uuid
    ) END) ORDER BY e.created_at, e.id), '[]'::json)
FROM executions e WHERE e.repo_root = $1 AND e.commit_sha = $2)`;

/** Release admission of a release-stage execution from its upstreams (DESIGN §8). */
function admissionReasons(row: BoundExecutionJson): string[] {
  const upstreams = row.upstreams ?? [];
  if (upstreams.length === 0) return ['no_upstream_review'];
  return upstreams.flatMap((u) => {
    if (u.status !== 'completed') return [`not_completed:${u.id}`];
    if (u.verdict !== 'compliant') return [`non_compliant:${u.id}`];
    return u.approved ? [] : [`not_approved:${u.id}`];
  });
}

/** Several executions' statuses as one workflow status: unfinished first, then failure wins. */
function workflowStatus(statuses: ExecutionStatus[]): ExecutionStatus {
  for (const s of ['running', 'queued', 'failed', 'cancelled'] as const) if (statuses.includes(s)) return s;
  return 'completed';
}

/**
 * Bound workflows from the commit's executions, grouped by workflow_id; a standalone execution
 * is a one-stage workflow. The workflows issue extends this with stages that never got an
 * execution (blocked, skipped).
 */
export function boundWorkflows(rows: BoundExecutionJson[], verifier: CachingVerifier): BoundWorkflow[] {
  const groups = new Map<string, BoundExecutionJson[]>();
  for (const row of rows) {
    const key = row.workflow_id ?? row.id;
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return [...groups.entries()]
    .map(([id, members]): BoundWorkflow => {
      const releases = members.filter((m) => m.stage_role === 'release');
      const reasons = releases.flatMap(admissionReasons);
      const executions = members.map((m): BoundExecution => ({
        execution_id: m.id,
        stage_id: m.stage_id,
        stage_role: m.stage_role,
        status: m.status,
        verdict: m.verdict,
        certificate_valid: m.certificate === null ? null : verifier.verifyJson(m.certificate).verified,
      }));
      return {
        workflow_id: id,
        standalone: members[0].workflow_id === null,
        owner_id: members[0].owner_id,
        status: workflowStatus(members.map((m) => m.status)),
        executions,
        release: { admission: releases.length === 0 ? 'none' : reasons.length > 0 ? 'not_admitted' : 'admitted', reasons },
      };
    })
    .sort((a, b) => (a.workflow_id < b.workflow_id ? -1 : 1));
}
