/** Every object `deepFreeze` froze together with everything it holds. */
const deeplyFrozen = new WeakSet<object>();

/**
 * Freezes a value and everything it holds, and records each object as deeply frozen (`isDeeplyFrozen`), so a
 * process-local memo may key on such an object's identity: it can never hold anything else
 * (ARCHITECTURE.md, "Process-local state"). For plain data (JSON read from the database): no cycles.
 */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !deeplyFrozen.has(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
    // Recorded once everything it holds is, so a recorded object never holds a mutable one.
    deeplyFrozen.add(value);
  }
  return value;
}

/** Whether `deepFreeze` froze this object with everything it holds: equal identity then means equal content, always. */
export function isDeeplyFrozen(value: object): boolean {
  return deeplyFrozen.has(value);
}
