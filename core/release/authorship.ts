import type { ChangedFilesFacts, CodeownersFacts } from './pull-request-files.js';
import type { ChangedFilesSummary, RuleOutcome } from './rule-outcome.js';

/**
 * What shipgate knows of who made a pull request (docs/release-gate.md, "Agents on pull
 * requests"): facts read from GitHub by a job and stored per head commit, and the `authorship`
 * block a decision derives from them.
 */

/** A person or account as a commit or pull request names it: the GitHub account when GitHub links one, else git's name and e-mail. */
export interface Identity {
  login: string | null;
  /** GitHub's account type: `User`, `Bot`, `Organization`; null when no account is linked. */
  type: string | null;
  name: string | null;
  email: string | null;
}

/** One commit of a pull request. */
export interface CommitFacts {
  sha: string;
  author: Identity;
  committer: Identity;
  /** `Co-authored-by:` trailers of its message. */
  coauthors: { name: string; email: string | null }[];
}

/** One pull request review, with the reviewer's permission on the repository when it was read. */
export interface ReviewFacts {
  id: number;
  login: string;
  type: string;
  /** APPROVED, CHANGES_REQUESTED, COMMENTED, DISMISSED, PENDING. */
  state: string;
  /** The head the review was made on. */
  commit_id: string | null;
  submitted_at: string | null;
  /** admin, maintain, write, triage, read, none (GitHub's collaborator permission). */
  permission: string;
}

/** Everything read about a pull request at one head. */
export interface PullRequestFacts {
  number: number;
  head_sha: string;
  author: { login: string; type: string };
  /** Logins of the pull request's assignees. */
  assignees: string[];
  /**
   * Logins assigned to the pull request in an earlier read (at any head) and not in this one (`withAssigneesSeen`);
   * absent in records read before it was kept.
   */
  former_assignees?: string[];
  commits: CommitFacts[];
  reviews: ReviewFacts[];
  // Read since rules by changed files (docs/release-gate.md, "Rules"); absent in records read before.
  /** The branch it merges into (`base.ref`). */
  base_ref?: string;
  /** Its labels' names. */
  labels?: string[];
  /** The files it changes. */
  files?: ChangedFilesFacts;
  /** The base branch's CODEOWNERS. */
  codeowners?: CodeownersFacts;
  /**
   * Members (lower-case logins) of the teams the gate's rules and CODEOWNERS name, by lower-case
   * `org/slug`, as read with the facts; null: GitHub did not say (the team is unknown to the App).
   */
  teams?: Record<string, string[] | null>;
}

/**
 * Whether the pull request's authorship was read for a head: `pending` (asked, not read yet),
 * `read`, `unreadable` (GitHub refused or failed), `commit_limit` (more commits than GitHub lists).
 */
export const AUTHORSHIP_READ_STATUSES = ['pending', 'read', 'unreadable', 'commit_limit'] as const;
export type AuthorshipReadStatus = (typeof AUTHORSHIP_READ_STATUSES)[number];

/** The stored authorship of a commit that is the head of a pull request. */
export interface AuthorshipRecord {
  number: number;
  status: AuthorshipReadStatus;
  /** Why it is unreadable, in GitHub's words where it said. */
  reason: string | null;
  facts: PullRequestFacts | null;
}

/** Why an approval does not count. */
export const APPROVAL_REFUSALS = [
  'dismissed',
  'withdrawn',
  'changes_requested',
  'bot',
  'agent',
  'pull_request_author',
  'commit_author',
  'committer',
  'co_author',
  'assignee',
  'no_write_permission',
  'stale',
] as const;
export type ApprovalRefusal = (typeof APPROVAL_REFUSALS)[number];

/** One reviewer's deciding review and whether it counts as an independent human approval. */
export interface JudgedApproval {
  login: string;
  state: string;
  commit_sha: string | null;
  counted: boolean;
  reason: ApprovalRefusal | null;
}

/** The decision's (and the snapshot's) account of who made the change. */
export interface AuthorshipBlock {
  /**
   * `read`: the pull request's authorship is known; `pending`, `unreadable`, `commit_limit`: it is
   * not (a gate with agent rules never ships it); `no_pull_request`: no open pull request or merge
   * group names this commit, so it is judged by the rules for people and its authorship is unknown.
   */
  status: AuthorshipReadStatus | 'no_pull_request';
  pull_request: number | null;
  /** null when unknown. */
  agent_authored: boolean | null;
  /** The agents that took part (logins or e-mails). */
  agents: string[];
  /** `governed_by`: what covers an agent's commit; null for a person's commit, or an agent's nothing covers. */
  commits: { sha: string; agent_authored: boolean; identities: string[]; governed_by: GovernedBy | null }[];
  approvals: JudgedApproval[];
  /** What the pull request changes (absent when its files were never asked for). */
  changed_files?: ChangedFilesSummary;
  /** Each rule of the gate that applies to the pull request (and the protected paths), met or not. */
  rules?: RuleOutcome[];
}

/** An agent session covering an agent's commit (docs/mcp-gateway.md, "Sessions and the commits they produced"). */
export interface SessionCover {
  kind: 'agent_session';
  session_id: string;
  execution_id: string;
  /** The session's governed `git push` that brought the commit, when a coding agent's hook recorded one (docs/agent-hooks.md, "Governed pushes"). */
  call?: { seq: number; tool: string; command: string };
}

/** What covers an agent's commit: a workflow or execution bound to it (`bound_work`), or an agent session. */
export type GovernedBy = { kind: 'bound_work' } | SessionCover;
