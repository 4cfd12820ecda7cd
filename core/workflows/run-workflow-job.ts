import type { JobAttempt } from '../executions/run-execution-job.js';
import { closeAfter, runWorkflow, type WorkflowRunPorts } from './run-workflow.js';
import type { WorkflowStore } from './workflow-store.js';

/**
 * Ends a workflow whose every attempt failed, so it does not stay `running` forever: its
 * running stage fails (its execution is closed by the caller), later stages are skipped.
 */
export async function giveUpWorkflow(workflows: WorkflowStore, workflowId: string): Promise<string | null> {
  const workflow = await workflows.get(workflowId);
  const running = workflow?.stages.find((s) => s.status === 'running');
  if (running) await workflows.transitionStage(workflowId, running.id, { from: ['running'], to: 'failed' }, closeAfter('failed'));
  await workflows.finish(workflowId, { status: 'failed', laterStages: 'skipped' });
  return running?.execution_id ?? null;
}

/**
 * One queue job running (or resuming) one workflow. A failure is rethrown so the queue retries
 * the job (it resumes where the last attempt stopped), except on the last attempt, where the
 * workflow is closed as failed.
 */
export async function runWorkflowJob(
  ports: WorkflowRunPorts & { giveUpExecution(executionId: string): Promise<void> },
  workflowId: string,
  attempt: JobAttempt,
): Promise<void> {
  try {
    await runWorkflow(ports, workflowId);
  } catch (error) {
    if (attempt.signal.aborted || attempt.attempts < attempt.maxAttempts) throw error;
    ports.log('workflow.given_up', { workflow_id: workflowId, attempts: attempt.attempts, error: (error as Error).message });
    const executionId = await giveUpWorkflow(ports.workflows, workflowId);
    if (executionId) await ports.giveUpExecution(executionId);
  }
}
