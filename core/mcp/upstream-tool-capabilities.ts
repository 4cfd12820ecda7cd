/** The MCP tool annotations that decide a tool's capabilities; every one is an optional hint. */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  openWorldHint?: boolean;
}

/** What an upstream MCP server registration may say about its tools: tool name -> capabilities. */
export type ToolCapabilityMap = Readonly<Record<string, readonly string[]>>;

/** The capability naming one upstream tool, whatever it does: `mcp:<server>/<tool>`. */
export function upstreamToolCapability(server: string, tool: string): string {
  return `mcp:${server}/${tool}`;
}

/**
 * The capabilities a call to an upstream tool needs (docs/mcp-gateway.md, "Capabilities of an
 * upstream tool"). Absent hints mean the worst case, as the MCP specification's defaults say:
 * a tool is writing unless it says it is read-only, destructive unless it says otherwise, and
 * reaches the open world unless it says it does not. A registration's explicit map entry
 * replaces the derived set (the tool's own capability is always kept).
 */
export function upstreamToolCapabilities(
  server: string,
  tool: { name: string; annotations?: ToolAnnotations | null },
  overrides?: ToolCapabilityMap | null,
): string[] {
  const own = upstreamToolCapability(server, tool.name);
  const explicit = overrides && Object.hasOwn(overrides, tool.name) ? overrides[tool.name] : undefined;
  if (explicit) return [...new Set([own, ...explicit])];
  const hints = tool.annotations ?? {};
  const readOnly = hints.readOnlyHint === true;
  const capabilities = [own];
  if (!readOnly) capabilities.push('mcp:write');
  if (!readOnly && hints.destructiveHint !== false) capabilities.push('mcp:destructive');
  if (hints.openWorldHint !== false) capabilities.push('network:*');
  return capabilities;
}
