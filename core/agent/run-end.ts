import type { ExecutionErrorCode } from '../executions/execution.js';

/** How a run ended, before its verdict is decided and certified. */
export type RunEnd =
  { status: 'completed'; output: string } | { status: 'failed'; code: ExecutionErrorCode; message: string } | { status: 'cancelled' };

export function failed(code: ExecutionErrorCode, message: string): RunEnd {
  return { status: 'failed', code, message };
}
