import type { Page, PageRequest } from '../pagination.js';
import type { EvidenceFormat } from '../evidence-content/evidence-format.js';
import type { EvidenceSummary } from '../evidence-content/evidence-summary.js';
import type { CommitEvidence, CheckRun, EvidenceDocument, UploadedEvidence, WorkflowRun } from './evidence.js';
import type { BoundExecutionFacts, BoundWorkflowFacts } from '../workflows/judge-bound-workflows.js';
import type { AuthorshipRecord } from './authorship.js';
import type { EnvelopeReader } from './certificate-validity.js';
import type { CommitWork } from './governed-work.js';
import type { MergeGroupPullRequest } from './merge-group-authorship.js';
import type { SessionCoverageRecords } from './session-coverage.js';
import type { Gate, GateVersion } from './gate.js';
import type { NewPromotion, Promotion, PromotionTarget } from './promotion.js';
import type { NewSnapshot, Snapshot, SnapshotHead, SnapshotStatus } from './snapshot.js';
import type { Decision } from './evaluate-decision.js';
import type { WorkflowEvidenceFacts } from './admit-workflow-evidence.js';
import type { RepositoryIdsReader } from '../accounts/workflow-repository-ids.js';
import type { RecentCommitsReader } from './recent-commits-reader.js';
import type { OverrideFact } from './override.js';

export interface GateStore {
  latestGate(repoRoot: string): Promise<GateVersion | null>;
  /** Records a new version unless `digest` equals the latest version's; `created` says which. */
  saveGate(
    repoRoot: string,
    gate: Gate,
    digest: string,
    source: 'api' | 'config_file',
    createdBy: string | null,
  ): Promise<{ version: GateVersion; created: boolean }>;
  gateVersion(repoRoot: string, version: number): Promise<GateVersion | null>;
  /** Recorded versions newest first, those below `before` when given (keyset on the version number). */
  gateVersions(repoRoot: string, before: number | undefined, limit: number): Promise<GateVersion[]>;
}

interface CommitRef {
  repo_root: string;
  commit_sha: string;
  /** A branch (or `HEAD`) this commit was seen at; it then resolves to this commit if newer. */
  ref: string | null;
}

export type NewUploadedEvidence = Omit<UploadedEvidence, 'workflow_run' | 'recorded_by_user' | 'format' | 'summary_digest'> &
  CommitRef & {
    /** The user whose API key recorded it; null when a workflow did, through its OIDC token. */
    recorded_by: string | null;
    workflow_run: WorkflowRun | null;
    /** The document read at upload, with what was read from it; stored once per digest. */
    document?: {
      bytes: Uint8Array;
      digest: string;
      format: EvidenceFormat;
      media_type: string;
      summary: EvidenceSummary;
      summary_digest: string;
    };
  };
export type EvidenceRecord = Omit<NewUploadedEvidence, 'document'> & {
  id: string;
  created_at: string;
  format: EvidenceFormat | null;
  summary: EvidenceSummary | null;
  /** null without a document, or once it was pruned. */
  document: EvidenceDocument | null;
};

/** A document as its download serves it, with the evidence it belongs to. */
export interface StoredEvidenceDocument extends EvidenceDocument {
  evidence_name: string;
  repo_root: string;
  bytes: Uint8Array;
}
export type NewCheckRun = CheckRun & CommitRef;

/** One repository, any of a list (the caller's readable ones, docs/api.md "Repository access"), or every one (undefined). */
export type RepoScope = string | readonly string[] | undefined;

export interface EvidenceStore extends WorkflowEvidenceFacts, RepositoryIdsReader {
  addEvidence(evidence: NewUploadedEvidence): Promise<EvidenceRecord>;
  /** The document of an evidence record, or null (unknown id, no document, or pruned). */
  evidenceDocument(evidenceId: string): Promise<StoredEvidenceDocument | null>;
  /** One row per GitHub check run id: a late delivery never turns a completed run back into a pending one. */
  addCheckRun(checkRun: NewCheckRun): Promise<void>;
}

/**
 * Everything a decision reads about a commit, as facts: `readCommitState` (read-commit-state.ts)
 * applies the rules to them.
 */
export interface CommitStateFacts {
  gate: GateVersion | null;
  /** The newest check run and the newest upload of each name, sorted by name. */
  evidence: CommitEvidence;
  /** The executions bound to the commit, oldest first, each with its newest execution certificate. */
  executions: BoundExecutionFacts[];
  /** The workflow records bound to the commit, each with its stages in order. */
  workflows: BoundWorkflowFacts[];
  /** The commit's latest snapshot: the one whose evidence was seen last. */
  latest: SnapshotHead | null;
  /** The repository's two latest attested-or-promoted snapshots (the caller skips its own). */
  attested: SnapshotHead[];
  /** The stored authorship of the pull request whose head this commit is, or of a merge group's pull request's head. */
  authorship: AuthorshipRecord | null;
  /** The merge group whose commit this is, if one was recorded. */
  merge_group: MergeGroupPullRequest | null;
  /** The workflows and standalone executions bound to the other commits of that pull request. */
  pull_request_work: CommitWork[];
  /** The open pull requests whose head this commit is, by number, ascending (docs/release-gate.md, "One pull request per head"). */
  open_pull_requests: number[];
  /** The commit's unrevoked overrides, oldest first, expired ones too (expiry is judged at read time, migration 047). */
  overrides: OverrideFact[];
}

export interface SnapshotStore {
  /** The gate, evidence, bound work, latest snapshot, attested snapshots and authorship in one round trip. */
  commitFacts(repoRoot: string, commitSha: string): Promise<CommitStateFacts>;
  /** The stored envelopes of these execution certificates (for those this process has not verified). */
  certificateEnvelopes: EnvelopeReader;
  /**
   * When the pull request's commits `shas` arrived, and the repository's agent sessions open at
   * some time between the first and the last arrival, grace included: a superset of those that
   * can cover them (docs/mcp-gateway.md, "Sessions and the commits they produced"). Never cached.
   */
  sessionCoverage(repoRoot: string, shas: string[]): Promise<SessionCoverageRecords>;
  /** Stores the snapshot, or marks the one with the same evidence digest as the latest again. */
  saveSnapshot(snapshot: NewSnapshot): Promise<SnapshotHead>;
  getSnapshot(id: string): Promise<Snapshot | null>;
  /** The latest attested-or-promoted snapshots (of the repository, or of all). */
  latestAttested(repoRoot: RepoScope, limit: number): Promise<SnapshotHead[]>;
  /** The newest snapshot (the current release candidate, whatever its status) of each gated repository, or of `repoRoot`. */
  latestCandidates(repoRoot: RepoScope): Promise<{ snapshot: Snapshot; gate: GateVersion | null }[]>;
  /** The latest decision for a commit (or the first recorded ref), with the gate's public_badge. */
  badgeFacts(repoRoot: string, commitSha: string | null, refs: string[]): Promise<BadgeFacts>;
  /** A round trip to the store, to report whether it is reachable. */
  ping(): Promise<void>;
}

export interface BadgeFacts {
  public_badge: boolean | null;
  decision: Decision | null;
  status: SnapshotStatus | null;
}

export interface PromotionStore {
  findPromotion(snapshotId: string, status: PromotionTarget): Promise<Promotion | null>;
  /**
   * Records the promotion and moves the snapshot, atomically; ConflictError when the snapshot
   * is no longer in `from_status`, or (with requireLatest) no longer the commit's latest.
   */
  recordPromotion(promotion: NewPromotion, options: { requireLatest: boolean }): Promise<Promotion>;
  /** `repo_roots`: only these repositories (the caller's readable ones, docs/api.md "Repository access"). */
  listPromotions(filter: { repo_root?: string; commit_sha?: string; repo_roots?: string[] }, page: PageRequest): Promise<Page<Promotion>>;
}

/** Storage port of the release gate. Implemented in db/stores/release/postgres-release-store.ts. */
export interface ReleaseStore extends GateStore, EvidenceStore, SnapshotStore, PromotionStore, RecentCommitsReader {}
