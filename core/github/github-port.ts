import type { ChangedFile } from '../release/pull-request-files.js';

/**
 * What the App needs from GitHub to post a decision, for one repository, as the port the core
 * talks to. app/ implements it over Probot's octokit (installation token) or GITHUB_TOKEN.
 */
export interface IssueComment {
  id: number;
  body: string;
  /**
   * Who posted it, as far as the credentials tell: `us` (through this App), `other` (a person or
   * another App), `unknown` (posting with GITHUB_TOKEN, as that token's user, whom shipgate does not look up).
   */
  author: 'us' | 'other' | 'unknown';
}

export type CheckRunStatus = 'queued' | 'in_progress' | 'completed';
export type CheckRunConclusion = 'success' | 'failure';

/** What shipgate posts as its check run; compared field by field before any write. */
export interface CheckRunContent {
  status: CheckRunStatus;
  conclusion: CheckRunConclusion | null;
  details_url: string;
  output: { title: string; summary: string };
}

export interface PostedCheckRun extends CheckRunContent {
  id: number;
}

/** A user's permission on a repository as GitHub's collaborator endpoint names it. */
export type RepoPermission = 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none';

export interface PullRequestHead {
  number: number;
  head_sha: string;
  head_ref: string;
  base_ref: string;
  state: 'open' | 'closed';
}

/** Who a pull request names, as GitHub has it now (docs/release-gate.md, "Agents on pull requests"). */
export interface PullRequestPeople {
  head_sha: string;
  state: 'open' | 'closed';
  /** The REST `user`: look it up by what GitHub says here, never by GET /users (404 for Copilot). */
  author: { login: string; type: string };
  assignees: string[];
  /** How many commits GitHub counts in the pull request (its commit list stops at 250). */
  commit_count: number;
  /** The branch it merges into (`base.ref`). */
  base_ref: string;
  /** Its labels' names. */
  labels: string[];
  /** How many files GitHub counts as changed (its file list stops at PULL_REQUEST_FILE_LIST_LIMIT). */
  changed_files: number;
}

/** A git identity of a commit, with the GitHub account GitHub linked to its e-mail (null when none). */
export interface CommitIdentity {
  login: string | null;
  type: string | null;
  name: string | null;
  email: string | null;
}

export interface PullRequestCommit {
  sha: string;
  message: string;
  author: CommitIdentity;
  committer: CommitIdentity;
}

export interface PullRequestReview {
  id: number;
  login: string;
  type: string;
  state: string;
  commit_id: string | null;
  submitted_at: string | null;
}

/** GitHub lists at most this many commits of a pull request. */
export const PULL_REQUEST_COMMIT_LIST_LIMIT = 250;

export interface GitHubRepository {
  /** Every comment of the issue or pull request, all pages. */
  listIssueComments(number: number): Promise<IssueComment[]>;
  createIssueComment(number: number, body: string): Promise<void>;
  updateIssueComment(commentId: number, body: string): Promise<void>;
  /** Check runs named `name` on the commit (newest first). */
  listCheckRuns(sha: string, name: string): Promise<PostedCheckRun[]>;
  createCheckRun(sha: string, name: string, content: CheckRunContent): Promise<void>;
  updateCheckRun(id: number, content: CheckRunContent): Promise<void>;
  /** The text of `path` on the default branch, or null when it does not exist. */
  readDefaultBranchFile(path: string): Promise<string | null>;
  /** The text of `path` at `ref` (a branch, tag or commit), or null when it does not exist there. */
  readFileAt(path: string, ref: string): Promise<string | null>;
  permissionOf(username: string): Promise<RepoPermission>;
  /**
   * The permission of the GitHub account with this numeric id, whatever its login is now (a login
   * is reusable after a rename); `none` when GitHub knows no such account.
   */
  permissionOfAccount(githubUserId: number): Promise<RepoPermission>;
  /** Whether GitHub shows the repository to anyone: `public`, else `private` (private, internal, or not found). */
  visibility(): Promise<'public' | 'private'>;
  /** A pull request as GitHub has it now, or null when there is none with that number. */
  pullRequest(number: number): Promise<PullRequestHead | null>;
  /** The pull request's author, assignees and commit count, or null when there is none with that number. */
  pullRequestPeople(number: number): Promise<PullRequestPeople | null>;
  /** Its commits, oldest first, all pages (GitHub lists at most PULL_REQUEST_COMMIT_LIST_LIMIT). */
  listPullRequestCommits(number: number): Promise<PullRequestCommit[]>;
  /** Its reviews, oldest first, all pages. */
  listPullRequestReviews(number: number): Promise<PullRequestReview[]>;
  /** The files it changes, all pages (GitHub lists at most PULL_REQUEST_FILE_LIST_LIMIT). */
  listPullRequestFiles(number: number): Promise<ChangedFile[]>;
  /**
   * The logins of a team's members (`GET /orgs/{org}/teams/{slug}/members`, all pages; needs the
   * App's organisation permission `members: read`), or null when GitHub shows no such team.
   * Implementations may remember an answer briefly (the App: 60 s).
   */
  teamMembers(org: string, slug: string): Promise<string[] | null>;
}

/** Chooses the credentials: the App's installation token, else GITHUB_TOKEN, else none. */
export interface GitHubAccess {
  /** null when neither App credentials nor GITHUB_TOKEN are configured (`whyNot` says so). */
  repository(repoRoot: string, installationId: number | null): Promise<GitHubRepository | null>;
  /** Why nothing can be posted now (neither an App nor GITHUB_TOKEN in force), else null; asked when needed, never kept. */
  whyNot(): Promise<string | null>;
}

/**
 * A GitHub answer worth retrying later: 5xx, or a primary or secondary rate limit. Thrown by the
 * port so the job can honour Retry-After without knowing octokit's error shapes.
 */
export class GitHubRetryableError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** Seconds GitHub asked us to wait (Retry-After, or until the rate-limit reset), when it said. */
    readonly retryAfterSeconds: number | null,
  ) {
    super(message);
    this.name = 'GitHubRetryableError';
  }
}

/** What GitHub answered when it refused something shipgate posted, as recorded on the delivery. */
export interface GitHubRejection {
  /** Method and path, e.g. `POST /repos/acme/app/check-runs`. */
  request: string;
  status: number;
  /** GitHub's own message, with the details of its `errors` list. */
  message: string;
}

/**
 * GitHub refused a request in a way the same request would meet again: invalid (422), not
 * allowed without being a rate limit (403, e.g. a permission the App lacks), or gone or out of
 * the App's reach (404). It is never retried: it is logged and recorded on the delivery
 * (docs/github-app.md, "When GitHub refuses a write").
 */
export class GitHubRejectedError extends Error {
  /** GitHub's status, where GitHubRetryableError and octokit's own errors carry theirs. */
  readonly status: number;

  constructor(readonly rejection: GitHubRejection) {
    super(`GitHub answered ${rejection.status} to ${rejection.request}: ${rejection.message}`);
    this.name = 'GitHubRejectedError';
    this.status = rejection.status;
  }
}
