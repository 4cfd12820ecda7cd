import { sha256Hex } from '../../canonical-json.js';
import type { Artifact } from '../../executions/execution.js';
import type { ToolResult } from './tool.js';

/** A tool result that stores a text artifact under its SHA-256, and tells the model so. */
export function artifactOf(
  kind: Artifact['kind'],
  name: string,
  content: string,
  extra: Pick<Artifact, 'approved_for_release'> = {},
): ToolResult {
  const artifact: Artifact = { kind, name, content, digest: sha256Hex(content), ...extra };
  const bytes = Buffer.byteLength(content, 'utf8');
  return { artifact, output: `Stored ${kind} "${name}" (${bytes} bytes, sha256 ${artifact.digest}).` };
}
