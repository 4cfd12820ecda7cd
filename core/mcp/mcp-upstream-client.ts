import type { McpUpstream } from './mcp-server-registry.js';
import type { ToolAnnotations } from './upstream-tool-capabilities.js';

/** A tool as an upstream lists it (`tools/list`). */
export interface UpstreamTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: ToolAnnotations & Record<string, unknown>;
}

/** What an upstream's `tools/call` answered. */
export interface UpstreamResult {
  content: Record<string, unknown>[];
  structuredContent?: Record<string, unknown>;
  isError: boolean;
}

/** How shipgate talks to upstream MCP servers (implemented in net/ with the official SDK's client). */
export interface McpUpstreamClient {
  listTools(upstream: McpUpstream): Promise<UpstreamTool[]>;
  /** Throws when the upstream fails or does not answer within `timeoutMs`. */
  callTool(upstream: McpUpstream, name: string, args: Record<string, unknown>, timeoutMs: number): Promise<UpstreamResult>;
  /** Null when `value` satisfies the JSON Schema, else why not. */
  checkArguments(schema: Record<string, unknown>, value: unknown): string | null;
}
