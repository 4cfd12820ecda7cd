import { UnavailableError } from '../core/errors.js';

/** Items one commit carries at most (bounds one statement's arrays). */
const MAX_BATCH = 200;

interface Pending<T, R> {
  item: T;
  resolve(result: R): void;
  reject(error: unknown): void;
}

/**
 * Group commit (ARCHITECTURE.md, "Process-local state"): writes submitted while one commit is
 * in flight are written together by the next, so a burst costs one durable commit per batch
 * instead of one per write, and every caller still hears back only once its write is durable.
 * A lone write goes at once. `commit` writes a batch in one transaction and answers each item in
 * order. When a batch of several fails for any reason but an unreachable database, each item is
 * retried alone, so one unstorable item fails only its own caller.
 */
export function groupCommit<T, R>(commit: (items: T[]) => Promise<R[]>): (item: T) => Promise<R> {
  let waiting: Pending<T, R>[] = [];
  let committing = false;

  async function commitAlone(entry: Pending<T, R>): Promise<void> {
    try {
      entry.resolve((await commit([entry.item]))[0]);
    } catch (error) {
      entry.reject(error);
    }
  }

  async function drain(): Promise<void> {
    committing = true;
    while (waiting.length > 0) {
      const batch = waiting.slice(0, MAX_BATCH);
      waiting = waiting.slice(batch.length);
      try {
        const results = await commit(batch.map((entry) => entry.item));
        batch.forEach((entry, i) => entry.resolve(results[i]));
      } catch (error) {
        if (batch.length === 1 || error instanceof UnavailableError) batch.forEach((entry) => entry.reject(error));
        else for (const entry of batch) await commitAlone(entry);
      }
    }
    committing = false;
  }

  return (item) =>
    new Promise<R>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (!committing) void drain();
    });
}
