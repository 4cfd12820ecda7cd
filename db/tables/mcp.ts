// The MCP gateway: registered upstream MCP servers.

export interface McpServerRow {
  name: string;
  url: string;
  /** The headers as JSON, sealed with SHIPGATE_SECRET_KEY (context `mcp_server:<name>`); null when none. */
  headers_ciphertext: string | null;
  header_names: string[];
  tools: Record<string, string[]> | null;
  created_by: string | null;
  created_at: Date;
}
