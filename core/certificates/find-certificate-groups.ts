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
  const groups: CertificateGroup[] = [];
  collectGroups(value, path, groups);
  return groups;
}

/** Into one list: spreading each child's list into its parent's overflowed the stack on a package of 500,000 groups. */
function collectGroups(value: unknown, path: string, groups: CertificateGroup[]): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => collectGroups(item, `${path}[${i}]`, groups));
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const record = value as Record<string, unknown>;
  if (Array.isArray(record.certificates)) {
    groups.push({
      path: path ? `${path}.certificates` : 'certificates',
      certificates: record.certificates as Certificate[],
      toolCalls: Array.isArray(record.tool_calls) ? (record.tool_calls as ToolCallEntry[]) : undefined,
    });
  }
  for (const [key, child] of Object.entries(record)) {
    if (key === 'certificates' || (!path && SKIPPED.has(key))) continue;
    collectGroups(child, path ? `${path}.${key}` : key, groups);
  }
}
