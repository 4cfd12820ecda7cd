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

/** What an upstream tells the gateway on its own, while a connection to it is open. */
export interface UpstreamEvents {
  /** The upstream sent `notifications/tools/list_changed`. */
  onToolsChanged(): void;
}

/** An initialized client session with one upstream, kept for the MCP session that uses it. */
export interface UpstreamConnection {
  /** Every page of `tools/list`; throws when the upstream fails or does not answer within `timeoutMs`. */
  listTools(timeoutMs: number): Promise<UpstreamTool[]>;
  /** Throws when the upstream fails or does not answer within `timeoutMs`. */
  callTool(name: string, args: Record<string, unknown>, timeoutMs: number): Promise<UpstreamResult>;
  /** Ends the upstream's session and closes the connection; never throws. */
  close(): Promise<void>;
}

/** How shipgate talks to upstream MCP servers (implemented in net/ with the official SDK's client). */
export interface McpUpstreamClient {
  /**
   * Opens a client session (`initialize`) with the upstream's stored headers; throws after
   * `timeoutMs`. With `bearer`, every request to the upstream (the first and each later one) is
   * sent with `Authorization: Bearer <what it answers then>`, so a token refreshed meanwhile is the one sent.
   */
  connect(upstream: McpUpstream, timeoutMs: number, events: UpstreamEvents, bearer?: () => Promise<string>): Promise<UpstreamConnection>;
  /** Null when `value` satisfies the JSON Schema, else why not. */
  checkArguments(schema: Record<string, unknown>, value: unknown): string | null;
}
