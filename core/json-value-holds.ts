/**
 * Whether a value read from JSON holds, at any depth, a value (or an object's key) that `test`
 * accepts. Iterative, so nesting costs no stack.
 */
function holds(value: unknown, test: (item: unknown) => boolean): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (test(item)) return true;
    if (typeof item === 'object' && item !== null)
      for (const [key, child] of Object.entries(item)) {
        if (test(key)) return true;
        pending.push(child);
      }
  }
  return false;
}

/**
 * Whether a value read from JSON holds a number that is not finite: JSON.parse reads a literal
 * beyond the double range (`1e400`) as Infinity, which JSON.stringify then writes as null, so such
 * a value cannot be recorded or signed as given.
 */
export function holdsNonFiniteNumber(value: unknown): boolean {
  return holds(value, (item) => typeof item === 'number' && !Number.isFinite(item));
}

/** Whether a value read from JSON holds a string (or key) with a NUL character, which PostgreSQL cannot store in text. */
export function holdsNulCharacter(value: unknown): boolean {
  return holds(value, (item) => typeof item === 'string' && item.includes('\0'));
}
