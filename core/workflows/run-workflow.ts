import type { Verifier } from '../certificates/types.js';
import type { Execution, ExecutionStatus } from '../executions/execution.js';
import type { ExecutionStore } from '../executions/execution-store.js';
import { releaseAdmissionReasons } from './release-admission.js';
import { upstreamFactsOf } from './upstream-facts-of.js';
import type { WorkflowStage } from './workflow.js';
import type { WorkflowClose, WorkflowStore } from './workflow-store.js';

export interface WorkflowRunPorts {
  workflows: WorkflowStore;
  executions: Pick<ExecutionStore, 'get' | 'getSummary'>;
  verifier: Verifier;
  /** Runs (or resumes, from its journal) one execution until it ends. */
  runStage(executionId: string): Promise<void>;
  log(event: string, fields: Record<string, unknown>): void;
}

/** What a stage's end does to its workflow: a failed or blocked stage fails it, a cancelled one cancels it. */
export function closeAfter(stageStatus: 'completed' | 'failed' | 'blocked' | 'cancelled'): WorkflowClose | undefined {
  if (stageStatus === 'failed' || stageStatus === 'blocked') return { status: 'failed', laterStages: 'skipped' };
  if (stageStatus === 'cancelled') return { status: 'cancelled', laterStages: 'cancelled' };
  return undefined;
}

const ENDED: readonly ExecutionStatus[] = ['completed', 'failed', 'cancelled'];

async function upstreamExecutions(ports: WorkflowRunPorts, stages: WorkflowStage[], stage: WorkflowStage) {
  return Promise.all(
    stage.upstream_stage_ids.map(async (id) => {
      const upstream = stages.find((s) => s.id === id);
      const execution: Execution | null = upstream?.execution_id ? await ports.executions.get(upstream.execution_id) : null;
      return { id, stage: upstream, execution };
    }),
  );
}

/**
 * Starts a pending stage: a release stage only when admitted (else it is `blocked` with the
 * reasons and the workflow fails). Returns the execution to run, or null when the stage did not
 * start here (blocked, or another attempt got there first).
 */
async function startStage(ports: WorkflowRunPorts, workflowId: string, stages: WorkflowStage[], stage: WorkflowStage) {
  const upstream = await upstreamExecutions(ports, stages, stage);
  if (stage.stage_role === 'release') {
    const reasons = releaseAdmissionReasons(
      upstream.map((u) => {
        const facts = upstreamFactsOf(u.id, u.execution, ports.verifier);
        // The stage's own status counts too: a run that ended after its stage was closed is not admitted.
        return u.stage?.status === 'completed' ? facts : { ...facts, status: null };
      }),
    );
    if (reasons.length > 0) {
      await ports.workflows.transitionStage(
        workflowId,
        stage.id,
        { from: ['pending'], to: 'blocked', blocked_reasons: reasons },
        closeAfter('blocked'),
      );
      ports.log('workflow.stage_blocked', { workflow_id: workflowId, stage_id: stage.id, reasons });
      return null;
    }
  }
  const upstreamIds = upstream.flatMap((u) => (u.execution ? [u.execution.id] : []));
  return ports.workflows.startStage(workflowId, stage.id, upstreamIds);
}

/**
 * Runs (or resumes) a workflow to its end, one stage at a time in order. Every step is a guarded
 * transition in the store, so a retried job picks up where the last attempt stopped: a running
 * stage's execution is resumed from its journal, never started again.
 */
export async function runWorkflow(ports: WorkflowRunPorts, workflowId: string): Promise<void> {
  if (!(await ports.workflows.start(workflowId))) return;
  for (;;) {
    const workflow = await ports.workflows.get(workflowId);
    if (!workflow || workflow.status !== 'running') return;
    const stage = workflow.stages.find((s) => s.status === 'pending' || s.status === 'running');
    if (!stage) {
      await ports.workflows.finish(workflowId, { status: 'completed', laterStages: 'skipped' });
      ports.log('workflow.finished', { workflow_id: workflowId, status: 'completed' });
      return;
    }
    const executionId = stage.status === 'running' ? stage.execution_id : await startStage(ports, workflowId, workflow.stages, stage);
    if (!executionId) continue;
    await ports.runStage(executionId);
    const ended = (await ports.executions.getSummary(executionId))?.status;
    if (!ended || !ENDED.includes(ended)) throw new Error(`The execution of stage ${stage.id} did not end; the job will resume it.`);
    const status = ended as 'completed' | 'failed' | 'cancelled';
    const close = closeAfter(status);
    await ports.workflows.transitionStage(workflowId, stage.id, { from: ['running'], to: status }, close);
    ports.log('workflow.stage_finished', { workflow_id: workflowId, stage_id: stage.id, execution_id: executionId, status });
    if (close) ports.log('workflow.finished', { workflow_id: workflowId, status: close.status });
  }
}
