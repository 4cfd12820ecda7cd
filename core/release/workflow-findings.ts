import { blocker, type Blocker, type Findings } from './blocker.js';
import type { BoundWorkflow } from './bound-workflow.js';
import type { Gate } from './gate.js';

const IN_PROGRESS = new Set(['queued', 'running']);

function label(w: BoundWorkflow): string {
  return w.standalone ? `Execution ${w.workflow_id}` : `Workflow ${w.workflow_id}`;
}

/** The release stage a refusal is about, for the message. */
function releaseStageOf(w: BoundWorkflow): string | null {
  const blocked = w.stages?.find((s) => s.stage_role === 'release' && s.status === 'blocked');
  return blocked?.stage_id ?? w.executions.find((e) => e.stage_role === 'release')?.stage_id ?? null;
}

/** The stage that keeps a workflow from completing: the one that ended it badly, else the one it is at. */
function stuckStageOf(w: BoundWorkflow): string {
  const stages = w.stages ?? [];
  const stuck =
    stages.find((s) => ['failed', 'blocked', 'cancelled'].includes(s.status)) ??
    stages.find((s) => s.status === 'running' || s.status === 'pending');
  return stuck ? ` (stage ${stuck.stage_id} is ${stuck.status})` : '';
}

/** What each bound workflow says on its own: unfinished, not admitted, non-compliant, bad certificate. */
function perWorkflow(w: BoundWorkflow): Blocker[] {
  const found: Blocker[] = [];
  const component = `workflow:${w.workflow_id}`;
  if (w.release.admission === 'not_admitted') {
    found.push(
      blocker(
        'release_not_admitted',
        component,
        `${label(w)}: its release stage${releaseStageOf(w) ? ` ${releaseStageOf(w)}` : ''} was not admitted (${w.release.reasons.join(', ') || 'no reason recorded'}).`,
        'Fix the upstream review (completed, compliant, approved for release, valid certificates) and run the workflow again.',
      ),
    );
  } else if (w.status !== 'completed') {
    found.push(
      blocker(
        'workflow_incomplete',
        component,
        `${label(w)} is ${w.status}${stuckStageOf(w)}.`,
        IN_PROGRESS.has(w.status) ? 'Wait for it to finish, then ask for the decision again.' : 'Run the workflow again for this commit.',
      ),
    );
  }
  for (const e of w.executions) {
    const where = e.stage_id ? ` (stage ${e.stage_id})` : '';
    if (e.verdict === 'non_compliant') {
      found.push(
        blocker(
          'execution_non_compliant',
          `execution:${e.execution_id}`,
          `Execution ${e.execution_id}${where} finished non_compliant.`,
          'Inspect its tool calls and output, fix the task or policy, and run it again.',
        ),
      );
    }
    if (e.certificate_valid === false) {
      found.push(
        blocker(
          'certificate_invalid',
          `execution:${e.execution_id}`,
          `The certificate of execution ${e.execution_id}${where} does not verify.`,
          'Export the execution and run `shipgate verify`; re-run it if its record was altered.',
        ),
      );
    }
  }
  return found;
}

/** The gate's reviewed-release rule and every bound workflow's own state. */
export function workflowFindings(gate: Gate, workflows: BoundWorkflow[]): Findings {
  const blockers = workflows.flatMap(perWorkflow);
  const requirements: Findings['requirements'] = [];
  if (gate.require_reviewed_release) {
    let found: Blocker | undefined;
    if (workflows.length === 0) {
      found = blocker(
        'no_execution_evidence_bound_to_snapshot',
        'workflows',
        'The gate requires a reviewed release, but no workflow or execution is bound to this commit.',
        'Run a workflow with a reviewer stage and a release stage, with repo_root and commit_sha set to this commit.',
      );
    } else if (
      !workflows.some((w) => w.release.admission === 'admitted') &&
      !workflows.some((w) => IN_PROGRESS.has(w.status) || w.release.admission === 'not_admitted')
    ) {
      found = blocker(
        'release_not_admitted',
        'workflows',
        'The gate requires a reviewed release, but no bound workflow has an admitted release stage.',
        'Run a workflow whose release stage lists a compliant, approving reviewer stage in upstream_stage_ids.',
      );
    }
    if (found) blockers.push(found);
    const admitted = workflows.some((w) => w.release.admission === 'admitted');
    const unmet = found ?? blockers.find((b) => b.code === 'release_not_admitted' || b.code === 'workflow_incomplete');
    requirements.push({
      policy: 'require_reviewed_release',
      requirement: 'A workflow bound to this commit has a release stage admitted after a compliant review.',
      satisfied: admitted,
      remediation: admitted ? null : (unmet?.remediation_suggestion ?? null),
    });
  }
  const own = blockers.find((b) => b.component !== 'workflows');
  requirements.push({
    policy: 'bound_workflows',
    requirement: 'Every bound workflow finished, every bound execution is compliant and its certificate verifies.',
    satisfied: !own,
    remediation: own?.remediation_suggestion ?? null,
  });
  return { requirements, blockers };
}
