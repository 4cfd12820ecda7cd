import type { ToolCallEntry } from '../executions/execution.js';
import type { Certificate } from './types.js';

export interface CertificateGroup {
  /** Where in the package the certificates sit, e.g. `stages[1].execution.certificates`. */
  path: string;
  certificates: Certificate[];
  /** The `tool_calls` beside them, when the package has them there. */
  toolCalls?: ToolCallEntry[];
}

const SKIPPED = new Set(['manifest', 'public_keys']);

/** Every `certificates` array anywhere in a package, with its sibling `tool_calls`. */
export function findCertificateGroups(value: unknown, path = ''): CertificateGroup[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => findCertificateGroups(item, `${path}[${i}]`));
  if (typeof value !== 'object' || value === null) return [];
  const record = value as Record<string, unknown>;
  const groups: CertificateGroup[] = [];
  if (Array.isArray(record.certificates)) {
    groups.push({
      path: path ? `${path}.certificates` : 'certificates',
      certificates: record.certificates as Certificate[],
      toolCalls: Array.isArray(record.tool_calls) ? (record.tool_calls as ToolCallEntry[]) : undefined,
    });
  }
  for (const [key, child] of Object.entries(record)) {
    if (key === 'certificates' || (!path && SKIPPED.has(key))) continue;
    groups.push(...findCertificateGroups(child, path ? `${path}.${key}` : key));
  }
  return groups;
}
