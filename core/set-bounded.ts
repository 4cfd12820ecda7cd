/**
 * Sets `key` in a process-local memory of at most `max` entries: a new key past the bound forgets
 * every entry at once (what such a memory saves is a round trip, never a fact; cheaper than LRU).
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  if (map.size >= max && !map.has(key)) map.clear();
  map.set(key, value);
}
