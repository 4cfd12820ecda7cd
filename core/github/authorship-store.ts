import type { AuthorshipRecord } from '../release/authorship.js';

/** Which pull request's authorship to read, at the head a delivery reported. */
export interface AuthorshipReadTarget {
  repo_root: string;
  installation_id: number | null;
  number: number;
  head_sha: string;
  /** The delivery that asked (where a refusal by GitHub while posting is recorded). */
  delivery_id: string | null;
}

/** Storage port of pull request authorship (db/stores/github/postgres-authorship-store.ts). */
export interface AuthorshipStore {
  /**
   * Records that the head's authorship is asked for (`pending`, unless something is recorded for
   * it already) and queues the read; reads asked for one pull request meanwhile coalesce.
   */
  requestRead(target: AuthorshipReadTarget): Promise<void>;
  /** Queues the read again in `delaySeconds` (a GitHub 5xx or rate limit); `attempt` counts the tries. */
  retryRead(target: AuthorshipReadTarget, attempt: number, delaySeconds: number): Promise<void>;
  /** Everyone the stored reads of pull request `number` (at any head) name as assigned, now or formerly. */
  assigneesSeen(repoRoot: string, number: number): Promise<string[]>;
  /** Records what was read (or why nothing could be) for a head commit. */
  save(repoRoot: string, headSha: string, record: AuthorshipRecord): Promise<void>;
}
