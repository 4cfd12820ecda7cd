/**
 * What a capability (or pattern) looks like: segments of letters, digits, `_`, `.` and `-`,
 * separated by `:` (or `/`, which separates an MCP upstream from its tool in `mcp:github/create_issue`:
 * docs/mcp-gateway.md); a segment may be `*` (a wildcard), but never part of one (`net*`).
 */
export const CAPABILITY_PATTERN = /^(?:\*|[A-Za-z0-9_.-]+)(?:[:/](?:\*|[A-Za-z0-9_.-]+))*$/;

export const CAPABILITY_HINT =
  'A capability is colon-separated (or /-separated) segments of letters, digits, _, . and -, each possibly *, e.g. repo:read or network:*.';
