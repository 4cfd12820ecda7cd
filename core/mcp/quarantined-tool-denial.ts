import type { DenialReason } from '../executions/execution.js';
import type { ResolvedTool } from './session-upstreams.js';

/** A tool whose definition is not the pinned one (docs/mcp-gateway.md, "Pinned tool definitions"): refused, saying why. */
export function quarantined(name: string, tool: ResolvedTool): { reason: DenialReason; capability: null; detail: string } {
  const digest = `sha256:${tool.definitionDigest}`;
  if (tool.pin === 'rejected')
    return { reason: 'tool_rejected', capability: null, detail: `${name}: an ADMIN rejected its definition (${digest})` };
  const what = tool.pin === 'changed' ? 'its definition changed since it was pinned' : 'it is new since the upstream was pinned';
  return { reason: 'awaiting_approval', capability: null, detail: `${name}: ${what} (${digest}); it awaits an ADMIN's approval` };
}
