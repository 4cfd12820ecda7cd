import { canonicalDigest } from '../canonical-json.js';
import type { ToolCallEntry } from '../executions/execution.js';

/**
 * The digest of one tool-call entry (allowed or denied) as recorded and exported: SHA-256 of
 * its canonical JSON, every field included. The execution certificate lists these in order,
 * so any edited, dropped or inserted entry no longer matches.
 */
export function toolCallDigest(entry: ToolCallEntry): string {
  return canonicalDigest(entry);
}
