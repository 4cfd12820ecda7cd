import type { ExecutionStatus, Verdict } from '../executions/execution.js';
import type { BoundExecution, BoundStage, BoundWorkflow } from '../release/bound-workflow.js';
import type { StoredCertificate } from '../release/certificate-validity.js';
import { releaseAdmissionReasons } from './release-admission.js';
import type { WorkflowStatus } from './workflow.js';

/** One execution bound to a commit, as the database reports it. */
export interface BoundExecutionFacts {
  id: string;
  owner_id: string;
  workflow_id: string | null;
  stage_id: string | null;
  stage_role: string;
  status: ExecutionStatus;
  verdict: Verdict | null;
  /** Its newest execution certificate; null when it has none yet. */
  certificate: StoredCertificate | null;
  /** For release stages: every upstream execution it names. */
  upstreams: { id: string; stage_id: string | null; status: string | null; verdict: string | null; approved: boolean }[] | null;
}

/** One workflow record bound to a commit, as the database reports it. */
export interface BoundWorkflowFacts {
  id: string;
  owner_id: string;
  status: WorkflowStatus;
  stages: BoundStage[];
}

/** Several executions' statuses as one workflow status: unfinished first, then failure wins. */
function statusOfExecutions(statuses: ExecutionStatus[]): ExecutionStatus {
  for (const s of ['running', 'queued', 'failed', 'cancelled'] as const) if (statuses.includes(s)) return s;
  return 'completed';
}

function admissionOfExecution(e: BoundExecutionFacts): string[] {
  return releaseAdmissionReasons(
    (e.upstreams ?? []).map((u) => ({
      stage_id: u.stage_id ?? u.id,
      status: u.status as ExecutionStatus | null,
      verdict: u.verdict as Verdict | null,
      approved: u.approved,
      certificate_valid: null,
    })),
  );
}

/**
 * Release admission of a bound workflow: a release stage that was blocked carries the reasons
 * it was refused with; one that got an execution is judged from its upstreams' recorded state.
 */
function releaseOf(members: BoundExecutionFacts[], record: BoundWorkflowFacts | undefined): BoundWorkflow['release'] {
  const blocked = record?.stages.filter((s) => s.stage_role === 'release' && s.status === 'blocked') ?? [];
  const releases = members.filter((m) => m.stage_role === 'release');
  const reasons = [...blocked.flatMap((s) => s.blocked_reasons), ...releases.flatMap(admissionOfExecution)];
  const admission = reasons.length > 0 ? 'not_admitted' : releases.length > 0 ? 'admitted' : 'none';
  return { admission, reasons };
}

/**
 * The workflows bound to a commit, as the release gate judges them: the commit's executions
 * grouped by workflow (a standalone execution is a one-stage workflow whose id is its own),
 * with each workflow record's status and stages where one exists (stages that never got an
 * execution, blocked or skipped, are only there). `certificateValid` says which execution
 * certificates verify (`certificateValidity`); one it does not name is not valid. Sorted by
 * id, so the evidence digest is stable.
 */
export function judgeBoundWorkflows(
  executions: readonly BoundExecutionFacts[],
  workflows: readonly BoundWorkflowFacts[],
  certificateValid: ReadonlyMap<string, boolean>,
): BoundWorkflow[] {
  const groups = new Map<string, BoundExecutionFacts[]>(workflows.map((w) => [w.id, []]));
  for (const e of executions) {
    const key = e.workflow_id ?? e.id;
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  const records = new Map(workflows.map((w) => [w.id, w]));
  return [...groups.entries()]
    .map(([id, members]): BoundWorkflow => {
      const record = records.get(id);
      const executionsOf = members.map((m): BoundExecution => ({
        execution_id: m.id,
        stage_id: m.stage_id,
        stage_role: m.stage_role,
        status: m.status,
        verdict: m.verdict,
        certificate_valid: m.certificate === null ? null : (certificateValid.get(m.certificate.id) ?? false),
      }));
      return {
        workflow_id: id,
        standalone: !record && members[0].workflow_id === null,
        owner_id: record?.owner_id ?? members[0].owner_id,
        status: record?.status ?? statusOfExecutions(members.map((m) => m.status)),
        executions: executionsOf,
        release: releaseOf(members, record),
        ...(record ? { stages: record.stages } : {}),
      };
    })
    .sort((a, b) => (a.workflow_id < b.workflow_id ? -1 : 1));
}
