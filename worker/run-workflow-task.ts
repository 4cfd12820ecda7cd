import type { Task } from 'graphile-worker';
import { runExecution } from '../core/agent/run-execution.js';
import type { RuntimeDeps } from '../core/agent/runtime-deps.js';
import { giveUp, runExecutionJob } from '../core/executions/run-execution-job.js';
import { runWorkflowJob } from '../core/workflows/run-workflow-job.js';
import type { WorkerDeps } from './worker-deps.js';

export function workflowIdOf(payload: unknown): string {
  const id = (payload as { workflow_id?: unknown } | null)?.workflow_id;
  if (typeof id !== 'string') throw new Error('run_workflow job without a workflow_id.');
  return id;
}

/**
 * The orchestration job of one workflow: it advances the stages in order and runs each stage's
 * execution itself, through the same fenced, resumable run as a run_execution job, so a retried
 * job resumes the running stage from its journal.
 */
export function runWorkflowTask(runtime: RuntimeDeps, deps: WorkerDeps): Task {
  return async (payload, helpers) => {
    const attempt = { attempts: helpers.job.attempts, maxAttempts: helpers.job.max_attempts, signal: helpers.abortSignal };
    await runWorkflowJob(
      {
        workflows: deps.workflows,
        executions: deps.executions,
        verifier: deps.verifier,
        runStage: (executionId) => runExecutionJob(runtime, runExecution, executionId, attempt),
        giveUpExecution: (executionId) => giveUp(runtime.journal, executionId, attempt.attempts),
        log: runtime.log,
      },
      workflowIdOf(payload),
      attempt,
    );
  };
}
