import { canonicalJson, sha256Hex } from '../canonical-json.js';
import type { UpstreamTool } from './mcp-upstream-client.js';

/** What an ADMIN approves of an upstream tool: everything of it an agent is shown (docs/mcp-gateway.md, "Pinned tool definitions"). */
export interface ToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

/** What of a listed tool is pinned, stored and reviewed; the title is included with the description, since an agent reads both. */
export function definitionOf(tool: UpstreamTool): ToolDefinition {
  return {
    name: tool.name,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    inputSchema: tool.inputSchema,
    ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
  };
}

/**
 * A tool's definition and its digest, the SHA-256 of its canonical JSON: the same definition
 * listed in any key order, by any replica, pins to the same digest.
 */
export function toolDefinition(tool: UpstreamTool): { definition: ToolDefinition; digest: string } {
  const definition = definitionOf(tool);
  return { definition, digest: sha256Hex(canonicalJson(definition)) };
}
