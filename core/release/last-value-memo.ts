import { rememberable, sameJson, type JsonComparison } from './same-json.js';

/**
 * Per key (a commit), the last value seen and what was computed from it (its digest, its JSON text), served again
 * while the key's next value is the same JSON value (`sameJson`). Never stale: what is served was computed from a value
 * equal to the one asked about. Bounded by entries and by the size the caller gives each result; oldest go first.
 */
export function createLastValueMemo<V, R>(options: { entries: number; bytes?: number; sizeOf?: (result: R) => number }) {
  const memo = new Map<string, { value: V; result: R; size: number }>();
  let bytes = 0;
  const drop = (key: string) => {
    const entry = memo.get(key);
    if (!entry) return;
    bytes -= entry.size;
    memo.delete(key);
  };
  return {
    /** What was computed from the key's last value, when `value` is the same JSON value; else undefined. */
    get(key: string, value: V): R | undefined {
      const entry = memo.get(key);
      if (!entry) return undefined;
      const met: JsonComparison = { renewed: false };
      if (!sameJson(value, entry.value, met)) return undefined;
      // Its source read again, the same value is remembered in its new parts: the next comparison stops at them.
      if (met.renewed) entry.value = rememberable(value);
      return entry.result;
    },
    /** Remembers `result` as computed from `value` (copied: the caller may change its own afterwards). */
    set(key: string, value: V, result: R): void {
      drop(key);
      const size = options.sizeOf?.(result) ?? 0;
      if (options.bytes !== undefined && size > options.bytes) return;
      while (memo.size > 0 && (memo.size >= options.entries || (options.bytes !== undefined && bytes + size > options.bytes))) {
        drop(memo.keys().next().value!);
      }
      memo.set(key, { value: rememberable(value), result, size });
      bytes += size;
    },
  };
}
