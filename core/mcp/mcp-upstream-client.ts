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

/**
 * The credentials an MCP session's upstreams are given beyond their stored headers: the tokens minted for it
 * (docs/mcp-gateway.md, "Least-privilege upstream credentials").
 */
export interface UpstreamSessionCredentials {
  /**
   * For an upstream registered with `auth.github_app`: every request to it (the first and each later one) is sent
   * with `Authorization: Bearer <what this answers then>`, so a token refreshed meanwhile is the one sent.
   */
  bearer?: () => Promise<string>;
  /**
   * Every token minted for the MCP session so far, whichever upstream it was sent to: asked again as each answer
   * arrives (a token minted during a request counts), and never to come back out of an upstream.
   */
  minted: () => readonly string[];
}

/** How shipgate talks to upstream MCP servers (implemented in net/ with the official SDK's client). */
export interface McpUpstreamClient {
  /**
   * Opens a client session (`initialize`) with the upstream's stored headers, and `credentials`' bearer token if it
   * has one; throws after `timeoutMs`. Whatever the upstream answers on the connection (its listings, tool
   * definitions included, its results and the messages of its failures) holds no stored header value and no token
   * of `credentials.minted()`: each is replaced by UPSTREAM_CREDENTIAL_REDACTED (`scrub-secrets.ts`).
   */
  connect(
    upstream: McpUpstream,
    timeoutMs: number,
    events: UpstreamEvents,
    credentials?: UpstreamSessionCredentials,
  ): Promise<UpstreamConnection>;
  /** Null when `value` satisfies the JSON Schema, else why not. */
  checkArguments(schema: Record<string, unknown>, value: unknown): string | null;
}
