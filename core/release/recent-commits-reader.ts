/**
 * The commits a gate simulation judges (docs/release-gate.md, "Simulating a gate"): a repository's commits and pull
 * request heads that shipgate holds facts for, newest first by when shipgate first saw each.
 */
export interface RecentCommitsReader {
  /** Up to `limit` commit SHAs, newest first seen first. */
  recentCommits(repoRoot: string, limit: number): Promise<string[]>;
}
