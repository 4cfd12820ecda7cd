import type { Task } from 'graphile-worker';
import { runExecution } from '../core/agent/run-execution.js';
import type { RuntimeDeps } from '../core/agent/runtime-deps.js';
import { runExecutionJob } from '../core/executions/run-execution-job.js';

export function executionIdOf(payload: unknown): string {
  const id = (payload as { execution_id?: unknown } | null)?.execution_id;
  if (typeof id !== 'string') throw new Error('run_execution job without an execution_id.');
  return id;
}

export function runExecutionTask(runtime: RuntimeDeps): Task {
  return async (payload, helpers) => {
    await runExecutionJob(runtime, runExecution, executionIdOf(payload), {
      attempts: helpers.job.attempts,
      maxAttempts: helpers.job.max_attempts,
      signal: helpers.abortSignal,
    });
  };
}
