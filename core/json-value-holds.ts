import { isStorableText } from './storable-text.js';

/**
 * Whether a value read from JSON holds, at any depth, a value (or an object's key) that `test`
 * accepts, or objects and arrays nested deeper than `maxDepth`. Iterative, so nesting costs no stack.
 */
function holds(value: unknown, test: (item: unknown) => boolean, maxDepth = Infinity): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (test(item)) return true;
    if (typeof item === 'object' && item !== null) {
      if (depth > maxDepth) return true;
      for (const [key, child] of Object.entries(item)) {
        if (test(key)) return true;
        pending.push([child, depth + 1]);
      }
    }
  }
  return false;
}

const nonFinite = (item: unknown) => typeof item === 'number' && !Number.isFinite(item);

/**
 * Whether a value read from JSON holds a number that is not finite: JSON.parse reads a literal
 * beyond the double range (`1e400`) as Infinity, which JSON.stringify then writes as null, so such
 * a value cannot be recorded or signed as given.
 */
export function holdsNonFiniteNumber(value: unknown): boolean {
  return holds(value, nonFinite);
}

/** Whether a value read from JSON holds a string (or key) with a NUL character, which PostgreSQL cannot store in text. */
export function holdsNulCharacter(value: unknown): boolean {
  return holds(value, (item) => typeof item === 'string' && item.includes('\0'));
}

/** How deep a recorded JSON value may nest; a request body may nest as deep (api/middleware/json-body.ts). */
export const MAX_RECORDED_DEPTH = 100;

/**
 * Whether a value read from JSON can be recorded (jsonb) and signed exactly as given: no number
 * beyond the double range, no string PostgreSQL refuses (NUL, a lone surrogate), nesting at most
 * MAX_RECORDED_DEPTH.
 */
export function isRecordableJson(value: unknown): boolean {
  return !holds(value, (item) => nonFinite(item) || (typeof item === 'string' && !isStorableText(item)), MAX_RECORDED_DEPTH);
}
