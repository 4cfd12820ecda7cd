/**
 * Capability patterns (docs/workflows.md, "Governed agent executions": permissions): colon-separated segments; a trailing `*` segment matches
 * any suffix (`network:*`), `*` alone matches everything, and a `*` segment elsewhere matches
 * exactly one segment.
 */
function segments(pattern: string): { fixed: string[]; open: boolean } {
  // `/` separates like `:`, so `mcp:github/*` grants every tool of the upstream `github`.
  const parts = pattern.split(/[:/]/);
  const open = parts[parts.length - 1] === '*';
  return { fixed: open ? parts.slice(0, -1) : parts, open };
}

/** Whether every capability `inner` matches is also matched by `outer`. */
export function capabilityCovers(outer: string, inner: string): boolean {
  const o = segments(outer);
  const i = segments(inner);
  if (!o.open && (i.open || i.fixed.length !== o.fixed.length)) return false;
  if (i.fixed.length < o.fixed.length) return false;
  return o.fixed.every((segment, n) => segment === '*' || segment === i.fixed[n]);
}

/** Whether the pattern grants (or forbids) the concrete capability. */
export function capabilityMatches(pattern: string, capability: string): boolean {
  return capabilityCovers(pattern, capability);
}

/**
 * The part of `pattern` that `ceiling` allows: the narrower of the two when one covers the
 * other, else nothing. Patterns that only partly overlap (possible with a middle `*`) yield
 * nothing, which fails closed.
 */
export function intersectCapability(pattern: string, ceiling: string): string | null {
  if (capabilityCovers(ceiling, pattern)) return pattern;
  if (capabilityCovers(pattern, ceiling)) return ceiling;
  return null;
}
