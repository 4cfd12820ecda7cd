import type { RepoPermissionFact, RepoPermissionReader, RepoVisibilityFact } from './repo-access.js';

/** How long GitHub's answer is kept (docs/api.md, "Repository access"). */
export const REPO_PERMISSION_TTL_MS = 5 * 60 * 1000;
/** Answers kept at most, oldest dropped first (about 100 bytes each). */
export const REPO_PERMISSION_CACHE_ENTRIES = 20_000;

interface Entry {
  /** When the lookup was sent: the answer is served until TTL after that, never longer. */
  at: number;
  answer: Promise<RepoPermissionFact | RepoVisibilityFact>;
}

/**
 * GitHub's answers, kept per GitHub account (numeric id) and repository, and per repository for
 * its visibility, for at most five minutes, with single flight: concurrent misses share the one
 * lookup in flight, so a user and repository cost at most one lookup of GitHub per window, however
 * many requests arrive (ARCHITECTURE.md, "Process-local state"). A failed lookup is not kept: the
 * requests that shared it fail (503), the next one asks again.
 */
export function cachedRepoPermissions(
  reader: RepoPermissionReader,
  options: { ttlMs?: number; maxEntries?: number; now?: () => number } = {},
): RepoPermissionReader {
  const ttl = options.ttlMs ?? REPO_PERMISSION_TTL_MS;
  const max = options.maxEntries ?? REPO_PERMISSION_CACHE_ENTRIES;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  function cached<T extends RepoPermissionFact | RepoVisibilityFact>(key: string, ask: () => Promise<T>): Promise<T> {
    const found = entries.get(key);
    if (found && now() - found.at < ttl) return found.answer as Promise<T>;
    entries.delete(key);
    const entry: Entry = { at: now(), answer: ask() };
    entry.answer.catch(() => {
      if (entries.get(key) === entry) entries.delete(key);
    });
    entries.set(key, entry);
    if (entries.size > max) entries.delete(entries.keys().next().value!);
    return entry.answer as Promise<T>;
  }
  return {
    // GitHub's repository names are case-insensitive.
    permissionOf: (repoRoot, githubUserId) =>
      cached(`${githubUserId} ${repoRoot.toLowerCase()}`, () => reader.permissionOf(repoRoot, githubUserId)),
    visibilityOf: (repoRoot) => cached(`* ${repoRoot.toLowerCase()}`, () => reader.visibilityOf(repoRoot)),
  };
}
