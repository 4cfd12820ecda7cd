// What the GitHub App records: claimed deliveries, pull request heads, merge groups, deployment requests.

export interface GitHubDeliveryRow {
  delivery_id: string;
  event: string;
  action: string | null;
  repo_root: string | null;
  installation_id: string | null;
  outcome: 'queued' | 'ignored';
  reason: string | null;
  received_at: Date;
  /** What GitHub refused (422, 403, 404) when posting for this delivery, oldest first; null: nothing (migration 015). */
  rejections: GitHubDeliveryRejection[] | null;
  /** How the github_delivery job ended (migration 033): null while queued (or ignored). */
  result: 'processed' | 'failed' | null;
  /** The last failed attempt's message: the reason once failed, the retry's cause while queued. */
  error: string | null;
  attempts: number;
  started_at: Date | null;
  finished_at: Date | null;
  /** Receipts of the same id after the first, and the latest one. */
  duplicates: number;
  last_duplicate_at: Date | null;
}

export interface GitHubDeliveryRejection {
  at: string;
  request: string;
  status: number;
  message: string;
}

export interface GitHubPullRequestRow {
  repo_root: string;
  number: number;
  head_sha: string;
  head_ref: string;
  base_ref: string;
  state: 'open' | 'closed';
  /** bigint: pg returns it as a string. */
  installation_id: string | null;
  updated_at: Date;
}

export interface GitHubMergeGroupRow {
  repo_root: string;
  head_sha: string;
  head_ref: string;
  base_ref: string;
  installation_id: string | null;
  created_at: Date;
  /** The pull request its queue branch names, and that pull request's head when recorded (migration 027). */
  pull_request_number: number | null;
  pull_request_head_sha: string | null;
}

export interface DeploymentRequestRow {
  id: string;
  repo_root: string;
  environment: string;
  commit_sha: string;
  ref: string | null;
  /** bigint columns: pg returns them as strings. */
  run_id: string;
  deployment_id: string;
  installation_id: string;
  state: 'waiting' | 'approved' | 'rejected';
  decision: 'SHIP' | 'NO_SHIP' | null;
  snapshot_id: string | null;
  timed_out: boolean;
  comment: string | null;
  requested_at: Date;
  answered_at: Date | null;
  /** The delivery that first asked for the review (migration 015; null for older rows). */
  delivery_id: string | null;
  /** GitHub's refusal of the answer (422): the request is no longer reviewed. */
  rejection: GitHubDeliveryRejection | null;
}

/** A pull request's authorship read at one head commit (migration 021). */
export interface PullRequestAuthorshipRow {
  repo_root: string;
  /** The head commit the facts are about. */
  commit_sha: string;
  number: number;
  status: 'pending' | 'read' | 'unreadable' | 'commit_limit';
  reason: string | null;
  /** core/release/authorship.ts PullRequestFacts; null unless read. */
  facts: Record<string, unknown> | null;
  commit_shas: string[];
  updated_at: Date;
}

/** When shipgate received the first push that brought a commit to a branch (migration 025). */
export interface CommitArrivalRow {
  repo_root: string;
  commit_sha: string;
  branch: string;
  arrived_at: Date;
  delivery_id: string;
}

/** The App registered from the studio (migration 031): at most one row; secrets sealed, never plain. */
export interface GitHubAppRegistrationRow {
  id: number;
  /** bigint (db/create-knex.ts reads it as a number). */
  app_id: number | string;
  slug: string;
  owner_login: string | null;
  html_url: string | null;
  client_id: string;
  /** Sealed with SHIPGATE_SECRET_KEY (core/executions/seal-secret.ts), context `github_app:<app_id>:<field>`. */
  client_secret_ciphertext: string;
  webhook_secret_ciphertext: string;
  private_key_ciphertext: string;
  registered_by: string | null;
  registered_at: Date;
}

/** A manifest form's single-use state, by its SHA-256 (migration 031). */
export interface GitHubAppManifestStateRow {
  state_sha256: string;
  organization: string | null;
  created_by: string | null;
  expires_at: Date;
}

/** A repository's numeric ids as the App's deliveries last named them (migration 039); bigint, read as numbers (db/create-knex.ts). */
export interface GitHubRepositoryRow {
  repo_root: string;
  repository_id: number;
  owner_id: number;
  observed_at: Date;
}
