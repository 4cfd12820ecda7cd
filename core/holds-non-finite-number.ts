/**
 * Whether a value read from JSON holds a number that is not finite, at any depth. JSON.parse reads a literal beyond
 * the double range (`1e400`) as Infinity, which JSON.stringify then writes as null: such a value cannot be recorded
 * or signed as given. Iterative, so nesting costs no stack.
 */
export function holdsNonFiniteNumber(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'number' && !Number.isFinite(item)) return true;
    if (typeof item === 'object' && item !== null) for (const child of Object.values(item)) pending.push(child);
  }
  return false;
}
