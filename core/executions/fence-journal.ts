import type { ExecutionJournal } from '../agent/journal.js';

/** Thrown by a fenced journal once its worker has handed the job back. */
export class JournalFencedError extends Error {
  constructor() {
    super('The worker is stopping; this run will be resumed by another worker.');
    this.name = 'JournalFencedError';
  }
}

/**
 * A journal that refuses every call once `signal` aborts. A stopping worker hands its job back
 * to the queue; from then on the run it leaves behind can record nothing, so the worker that
 * resumes the job is the only writer.
 */
export function fenceJournal(journal: ExecutionJournal, signal: AbortSignal): ExecutionJournal {
  const guard =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      if (signal.aborted) throw new JournalFencedError();
      return call(...args);
    };
  return {
    load: guard(journal.load.bind(journal)),
    start: guard(journal.start.bind(journal)),
    recordTurn: guard(journal.recordTurn.bind(journal)),
    recordToolCall: guard(journal.recordToolCall.bind(journal)),
    finish: guard(journal.finish.bind(journal)),
    isCancelled: guard(journal.isCancelled.bind(journal)),
  };
}
