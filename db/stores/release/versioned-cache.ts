import { deepFreeze } from '../../../core/deep-freeze.js';
import type { ReleaseCommitVersionRow, ReleaseRepoVersionRow } from '../../tables.js';

/** The change counts an entry was read at (null: no change counted yet). */
export interface StateVersions {
  commit_version: ReleaseCommitVersionRow['version'] | null;
  repo_version: ReleaseRepoVersionRow['version'] | null;
}

/**
 * A bounded map of values read from the database together with the change counts they were
 * read at (ARCHITECTURE.md, "Process-local state", the decision's cache): an entry is served
 * only to a caller that read the same counts since. Oldest entries go first (capacity 0 keeps
 * nothing); an entry is deeply frozen (`deepFreeze`), since every caller shares it, and core's memos of a commit's
 * stored facts may then key on its objects.
 */
export function createVersionedCache<T extends object>(capacity: number) {
  const entries = new Map<string, { versions: StateVersions; value: T }>();
  return {
    /** Whether a value is held for `key` at all (then `get` with fresh counts may serve it). */
    has(key: string): boolean {
      return entries.has(key);
    },
    get(key: string, versions: StateVersions): T | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      const fresh = entry.versions.commit_version === versions.commit_version && entry.versions.repo_version === versions.repo_version;
      return fresh ? entry.value : undefined;
    },
    set(key: string, versions: StateVersions, value: T): void {
      if (capacity === 0) return;
      entries.delete(key);
      if (entries.size >= capacity) entries.delete(entries.keys().next().value!);
      entries.set(key, { versions, value: deepFreeze(value) });
    },
  };
}
