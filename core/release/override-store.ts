import type { Page, PageRequest } from '../pagination.js';
import type { CommitFacts } from './authorship.js';
import type { NewOverride, Override } from './override.js';

/** Storage port of overrides (docs/release-gate.md, "Overrides"). Implemented in db/stores/release/postgres-override-store.ts. */
export interface OverrideStore {
  addOverride(override: NewOverride): Promise<Override>;
  getOverride(id: string): Promise<Override | null>;
  /** Records the revocation; the override as it stands after (already revoked: unchanged). */
  revokeOverride(id: string, revokedBy: string): Promise<Override | null>;
  /** Newest first (keyset on created_at, id). */
  listOverrides(repoRoot: string, page: PageRequest): Promise<Page<Override>>;
  /** The owners (user ids) of these executions (agent sessions are executions). */
  executionOwners(executionIds: string[]): Promise<string[]>;
  /** The owners (user ids) of the workflows bound to these commits of the repository and of the executions bound to them or in those workflows. */
  boundWorkOwners(repoRoot: string, shas: string[]): Promise<string[]>;
  /**
   * Who authored and committed `sha`, as stored with any read pull request of the repository that
   * lists it; null when shipgate holds no such record.
   */
  storedCommit(repoRoot: string, sha: string): Promise<CommitFacts | null>;
}
