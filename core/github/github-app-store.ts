import type { RepositoryIds } from '../accounts/workflow-repository-ids.js';
import type { DeliveryOutcome } from './delivery-intent.js';
import type { GitHubRejection, PullRequestHead } from './github-port.js';

export interface DeliveryClaim {
  delivery_id: string;
  event: string;
  action: string | null;
  repo_root: string | null;
  installation_id: number | null;
  outcome: DeliveryOutcome;
}

export interface PublishTarget {
  repo_root: string;
  commit_sha: string;
  installation_id: number | null;
  /**
   * The delivery that asked for this evaluation (the newest, when several coalesced), where a
   * refusal by GitHub is recorded; absent when recovery's sweep asked, or for jobs queued before.
   */
  delivery_id?: string | null;
}

export interface RecordedPullRequest extends PullRequestHead {
  repo_root: string;
  installation_id: number | null;
}

export interface MergeGroupRecord {
  repo_root: string;
  head_sha: string;
  head_ref: string;
  base_ref: string;
  installation_id: number | null;
  /** The pull request its queue branch names; null when the branch is not a merge queue branch. */
  pull_request_number: number | null;
  /** That pull request's head when the group was recorded; null when GitHub did not show the pull request. */
  pull_request_head_sha: string | null;
}

/** Storage port of the GitHub App (db/stores/github/postgres-github-app-store.ts). */
export interface GitHubAppStore {
  /**
   * Claims a delivery by its id and, when its outcome is queued, queues its work in the same
   * transaction. false: already claimed (a redelivery), nothing done.
   */
  claimDelivery(claim: DeliveryClaim): Promise<boolean>;
  /** Records the numeric ids a delivery named for a repository (unchanged ids write nothing). */
  recordRepositoryIds(repoRoot: string, ids: RepositoryIds): Promise<void>;
  /** Records a pull request's head unless a newer state (by `observedAt`) is already recorded. */
  recordPullRequest(pr: RecordedPullRequest, observedAt: Date): Promise<void>;
  openPullRequestsAt(repoRoot: string, sha: string): Promise<RecordedPullRequest[]>;
  pullRequest(repoRoot: string, number: number): Promise<RecordedPullRequest | null>;
  recordMergeGroup(group: MergeGroupRecord): Promise<void>;
  mergeGroup(repoRoot: string, headSha: string): Promise<MergeGroupRecord | null>;
  /** The head SHAs of the (ten newest) merge groups recorded for a pull request's head. */
  mergeGroupsOf(repoRoot: string, pullRequestHeadSha: string): Promise<string[]>;
  /**
   * Queues an evaluation and posting for a commit. Several for one commit coalesce into one
   * job; posting for one repository runs one job at a time (no two writers race to create).
   */
  schedulePublish(target: PublishTarget, options?: { delaySeconds?: number; attempt?: number }): Promise<void>;
  /** Records on the delivery that GitHub refused something posted for it (422). */
  recordRejection(deliveryId: string, rejection: GitHubRejection): Promise<void>;
}
