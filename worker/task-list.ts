import type { Task } from 'graphile-worker';
import type { RuntimeDeps } from '../core/agent/runtime-deps.js';
import type { JobPayloads } from '../db/job-queue.js';
import { runExecutionTask } from './run-execution-task.js';

/**
 * Every job type the service queues, with its handler. Typed by db/job-queue.ts's JobPayloads,
 * so a job type added there without a handler here fails the typecheck.
 */
export function buildTaskList(runtime: RuntimeDeps): Record<keyof JobPayloads, Task> {
  return {
    run_execution: runExecutionTask(runtime),
  };
}
