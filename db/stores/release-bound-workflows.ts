import type { Knex } from 'knex';
import type { DsseEnvelope, Verifier } from '../../core/certificates/types.js';
import type { ExecutionStatus, Verdict } from '../../core/executions/execution.js';
import type { BoundExecution, BoundWorkflow, BoundWorkflowSource } from '../../core/release/bound-workflow.js';

interface BoundRow {
  id: string;
  owner_id: string;
  workflow_id: string | null;
  stage_id: string | null;
  stage_role: string;
  status: ExecutionStatus;
  verdict: Verdict | null;
  certificate: DsseEnvelope | null;
  upstreams: { id: string; status: string | null; verdict: string | null; approved: boolean }[] | null;
}

// One query for the whole commit: each execution with its newest execution certificate and,
// for release stages, the state of every upstream execution it names.
const BOUND_EXECUTIONS = `
SELECT e.id, e.owner_id, e.workflow_id, e.stage_id, e.stage_role, e.status, e.verdict,
  (SELECT c.envelope FROM certificates c WHERE c.execution_id = e.id AND c.kind = 'execution' ORDER BY c.ordinal DESC LIMIT 1) AS certificate,
  CASE WHEN e.stage_role = 'release' THEN (
    SELECT coalesce(json_agg(json_build_object('id', up.id, 'status', u.status, 'verdict', u.verdict,
      'approved', EXISTS (SELECT 1 FROM artifacts a WHERE a.execution_id = u.id AND a.kind = 'review' AND a.approved_for_release))), '[]'::json)
    FROM jsonb_array_elements_text(e.upstream_execution_ids) AS up(id) LEFT JOIN executions u ON u.id = up.id::uuid
  ) END AS upstreams
FROM executions e WHERE e.repo_root = ? AND e.commit_sha = ? ORDER BY e.created_at, e.id`;

/** Release admission of a release-stage execution from its upstreams (DESIGN §8). */
function admissionReasons(row: BoundRow): string[] {
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
 * Bound workflows from the executions table: executions with the commit's repo_root/commit_sha,
 * grouped by workflow_id; a standalone execution is a one-stage workflow. The workflows issue
 * extends this with stages that never got an execution (blocked, skipped).
 */
export function createExecutionBoundWorkflowSource(db: Knex, verifier: Verifier): BoundWorkflowSource {
  return {
    async forCommit(repoRoot, commitSha) {
      // A named (prepared) statement: planned once per connection instead of on every poll.
      const { rows } = await db.raw<{ rows: BoundRow[] }>(BOUND_EXECUTIONS, [repoRoot, commitSha]).options({ name: 'release_bound_executions' });
      const groups = new Map<string, BoundRow[]>();
      for (const row of rows) {
        const key = row.workflow_id ?? row.id;
        groups.set(key, [...(groups.get(key) ?? []), row]);
      }
      return [...groups.entries()].map(([id, members]): BoundWorkflow => {
        const releases = members.filter((m) => m.stage_role === 'release');
        const reasons = releases.flatMap(admissionReasons);
        const executions = members.map((m): BoundExecution => ({
          execution_id: m.id, stage_id: m.stage_id, stage_role: m.stage_role, status: m.status, verdict: m.verdict,
          certificate_valid: m.certificate ? verifier.verify(m.certificate).verified : null,
        }));
        return {
          workflow_id: id,
          standalone: members[0].workflow_id === null,
          owner_id: members[0].owner_id,
          status: workflowStatus(members.map((m) => m.status)),
          executions,
          release: { admission: releases.length === 0 ? 'none' : reasons.length > 0 ? 'not_admitted' : 'admitted', reasons },
        };
      }).sort((a, b) => (a.workflow_id < b.workflow_id ? -1 : 1));
    },
  };
}
