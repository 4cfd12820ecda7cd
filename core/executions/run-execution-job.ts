import type { ExecutionJournal } from '../agent/journal.js';
import { ValidationError } from '../errors.js';
import type { RuntimeDeps } from '../agent/runtime-deps.js';
import { fenceRuntime } from './fence-runtime.js';

export interface JobAttempt {
  /** This attempt's number (1 for the first run) and how many the queue allows. */
  attempts: number;
  maxAttempts: number;
  /** Fires when the worker stops and hands the job back. */
  signal: AbortSignal;
}

/** How long a run may keep going after its worker started stopping before the job is handed back. */
const HAND_BACK_GRACE_MS = 2_000;

/** Rejects HAND_BACK_GRACE_MS after `signal` aborts; `stop` detaches it once the run settled. */
function handedBack(signal: AbortSignal): { promise: Promise<never>; stop(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let fail = () => {};
  const promise = new Promise<never>((_, reject) => {
    fail = () => {
      timer = setTimeout(() => reject(new Error('The worker stopped; the job goes back to the queue.')), HAND_BACK_GRACE_MS);
    };
  });
  if (signal.aborted) fail();
  else signal.addEventListener('abort', fail, { once: true });
  return {
    promise,
    stop() {
      signal.removeEventListener('abort', fail);
      clearTimeout(timer);
    },
  };
}

/**
 * Ends an execution whose every attempt failed, so it does not stay `running` forever; or, when
 * `refused`, the attempt whose record the database refused (a value it cannot store), which no retry mends.
 */
export async function giveUp(journal: ExecutionJournal, executionId: string, attempts: number, refused = false): Promise<void> {
  await journal.finish(executionId, {
    status: 'failed',
    verdict: null,
    output: null,
    certificate: null,
    violations: [],
    error: {
      code: 'internal_error',
      message: refused
        ? 'The run could not be recorded: the database refused a value it holds. It was not retried.'
        : `The run could not be completed in ${attempts} attempts.`,
    },
  });
}

/**
 * One queue job running (or resuming) one execution. A failure is rethrown so the queue retries
 * the job (the run resumes from its journal), except on the last attempt, where the execution is
 * closed as failed. A stopping worker fences the run (see fenceRuntime), so nothing more is
 * written once the job is back in the queue.
 */
export async function runExecutionJob(
  deps: RuntimeDeps,
  run: (deps: RuntimeDeps, executionId: string) => Promise<void>,
  executionId: string,
  attempt: JobAttempt,
): Promise<void> {
  const fenced = fenceRuntime(deps, attempt.signal);
  const handBack = handedBack(attempt.signal);
  try {
    await Promise.race([run(fenced, executionId), handBack.promise]);
  } catch (error) {
    // The record refusing a value fails every attempt alike, each one paying the provider again.
    const final = error instanceof ValidationError;
    if (attempt.signal.aborted || (attempt.attempts < attempt.maxAttempts && !final)) throw error;
    deps.log('execution.given_up', { execution_id: executionId, attempts: attempt.attempts, error: (error as Error).message });
    await giveUp(deps.journal, executionId, attempt.attempts, final);
  } finally {
    handBack.stop();
  }
}
