import { rememberable, sameJson, type JsonComparison } from './same-json.js';

/** How many commits each memo below keeps: the decision cache's size (SHIPGATE_DECISION_CACHE_COMMITS). */
let rememberedCommits = 2_000;

/**
 * Sizes every commit's memo (judgement, digest, answer text) like the decision's cache, so a server polling as many
 * commits as its cache holds keeps them all; 0 keeps nothing. Set where the release ports are built.
 */
export function rememberCommits(commits: number): void {
  rememberedCommits = commits;
}

/**
 * Per key (a commit), the last value seen and what was computed from it (its digest, its JSON text), served again
 * while the key's next value is the same JSON value (`sameJson`). Never stale: what is served was computed from a value
 * equal to the one asked about. Bounded by `rememberCommits` entries and by the size the caller gives each result (at
 * most `bytesPerCommit` each on average); oldest go first.
 */
export function createLastValueMemo<V, R>(options: { bytesPerCommit?: number; sizeOf?: (result: R) => number } = {}) {
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
      const entries = rememberedCommits;
      const budget = options.bytesPerCommit === undefined ? Infinity : options.bytesPerCommit * entries;
      const size = options.sizeOf?.(result) ?? 0;
      if (entries === 0 || size > budget) return;
      while (memo.size > 0 && (memo.size >= entries || bytes + size > budget)) drop(memo.keys().next().value!);
      memo.set(key, { value: rememberable(value), result, size });
      bytes += size;
    },
  };
}
