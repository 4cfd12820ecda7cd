import type { PermissionLevel } from '../github/installation-token-minter.js';
import type { ToolCapabilityMap } from './upstream-tool-capabilities.js';

/**
 * How shipgate authenticates to an upstream beyond its stored headers: `github_app`, an
 * installation token per session limited to its repository and these permissions
 * (docs/mcp-gateway.md, "Least-privilege upstream credentials").
 */
export interface UpstreamAuth {
  github_app?: { permissions: Record<string, PermissionLevel> };
}

/** A registered upstream MCP server as anyone may see it: its headers by name only. */
export interface McpServer {
  name: string;
  url: string;
  header_names: string[];
  /** Explicit capabilities per tool name, replacing what the tool's annotations imply. */
  tools: ToolCapabilityMap | null;
  /** Null: the stored headers are all it gets. */
  auth: UpstreamAuth | null;
  created_at: string;
}

/** What the gateway needs to call an upstream: its headers, decrypted. Never leaves the process. */
export interface McpUpstream extends McpServer {
  headers: Record<string, string>;
}

export interface NewMcpServer {
  name: string;
  url: string;
  headers?: Record<string, string>;
  tools?: ToolCapabilityMap;
  auth?: UpstreamAuth;
}

/** Storage port of the upstream MCP servers (docs/mcp-gateway.md); headers are stored encrypted. Implemented in db/. */
export interface McpServerRegistry {
  /** Throws ConflictError when the name is taken. */
  create(server: NewMcpServer, createdBy: string): Promise<McpServer>;
  list(): Promise<McpServer[]>;
  /** The named upstreams with their headers; names not registered are left out. */
  upstreams(names: readonly string[]): Promise<McpUpstream[]>;
  /** False when no such server was registered. */
  delete(name: string): Promise<boolean>;
}
