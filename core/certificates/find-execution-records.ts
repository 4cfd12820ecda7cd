import type { Certificate } from './types.js';

export interface PackagedExecution {
  /** Where the record sits: `execution` (an execution export) or `stages[1].execution` (a workflow export). */
  path: string;
  record: Record<string, unknown>;
  certificates: Certificate[];
  toolCalls: unknown[];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/**
 * The execution records of a package with the certificates and tool calls that belong to them:
 * an execution export carries them as the top-level `execution`, `certificates` and
 * `tool_calls`; a workflow export as each stage's `execution`, holding its own.
 */
export function findExecutionRecords(pkg: Record<string, unknown>): PackagedExecution[] {
  const found: PackagedExecution[] = [];
  if (isObject(pkg.execution))
    found.push({
      path: 'execution',
      record: pkg.execution,
      certificates: list(pkg.certificates) as Certificate[],
      toolCalls: list(pkg.tool_calls),
    });
  list(pkg.stages).forEach((stage, i) => {
    const execution = isObject(stage) ? stage.execution : undefined;
    if (isObject(execution))
      found.push({
        path: `stages[${i}].execution`,
        record: execution,
        certificates: list(execution.certificates) as Certificate[],
        toolCalls: list(execution.tool_calls),
      });
  });
  return found;
}
