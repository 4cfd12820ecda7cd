import type { RepositoryIds } from '../accounts/workflow-repository-ids.js';
import type { CheckRunApp } from '../release/evidence.js';
import type { DeploymentRuleIntent } from './deployment-rule-intent.js';

/** What a webhook delivery asks shipgate to do, reduced to the fields the work needs (a job's payload). */
export interface RepoTarget {
  repo_root: string;
  /** The App installation the delivery came through (null for deliveries to a repository webhook). */
  installation_id: number | null;
  /** The repository's numeric ids as the delivery names them (recorded: OIDC tokens must match them). */
  repository_ids?: RepositoryIds;
}

export interface PullRequestIntent extends RepoTarget {
  kind: 'pull_request';
  number: number;
  head_sha: string;
  head_ref: string;
  base_ref: string;
  state: 'open' | 'closed';
  /** GitHub's updated_at of the pull request: an older delivery never moves the head back. */
  observed_at: string | null;
  /** Whether to evaluate and post (not for a closed pull request). */
  evaluate: boolean;
}

export interface CheckRunIntent extends RepoTarget {
  kind: 'check_run';
  head_sha: string;
  head_branch: string | null;
  check: {
    name: string;
    status: string;
    conclusion: string | null;
    started_at: string | null;
    completed_at: string | null;
    details_url: string | null;
    external_id: number;
    /** The App that reported it (`check_run.app`); absent in jobs queued before shipgate kept sources. */
    app?: CheckRunApp | null;
  };
}

/** Re-run of our check run or of the whole suite: evaluate the commit again. */
export interface RecheckIntent extends RepoTarget {
  kind: 'recheck';
  head_sha: string;
}

/** `/shipgate recheck` commented on a pull request: honoured only for users who can write. */
export interface RecheckCommandIntent extends RepoTarget {
  kind: 'recheck_command';
  number: number;
  user: string;
}

/** A review submitted, edited or dismissed: the pull request's reviews are read again and its head re-evaluated. */
export interface PullRequestReviewIntent extends RepoTarget {
  kind: 'pull_request_review';
  number: number;
  head_sha: string;
}

export interface MergeGroupIntent extends RepoTarget {
  kind: 'merge_group';
  head_sha: string;
  head_ref: string;
  base_ref: string;
}

/** Commits a push brought to a branch: shipgate notes when it received them (docs/mcp-gateway.md, "Sessions and the commits they produced"). */
export interface PushIntent extends RepoTarget {
  kind: 'push';
  /** The branch, without `refs/heads/`. */
  branch: string;
  /** The pushed commits and the head commit, each once. */
  shas: string[];
  /** The branch's new head. */
  head_sha: string;
}

export type DeliveryIntent =
  | PullRequestIntent
  | PushIntent
  | PullRequestReviewIntent
  | CheckRunIntent
  | RecheckIntent
  | RecheckCommandIntent
  | MergeGroupIntent
  | DeploymentRuleIntent;

/** What the webhook answers, and what the delivery's record keeps. */
export type DeliveryOutcome = { status: 'queued'; intent: DeliveryIntent } | { status: 'ignored'; reason: string };
