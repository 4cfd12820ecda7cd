/**
 * Whether a granted (or forbidden) capability pattern covers a capability (DESIGN §5): segments
 * are colon-separated, a trailing `*` segment matches any suffix (`network:*`), `*` alone all.
 */
export function capabilityMatches(pattern: string, capability: string): boolean {
  const want = pattern.split(':');
  const have = capability.split(':');
  for (let i = 0; i < want.length; i++) {
    if (want[i] === '*' && i === want.length - 1) return true;
    if (want[i] !== '*' && want[i] !== have[i]) return false;
    if (i >= have.length) return false;
  }
  return want.length === have.length;
}
