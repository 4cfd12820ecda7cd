import type { EvidenceFormat } from '../evidence-content/evidence-format.js';
import type { EvidenceSummary } from '../evidence-content/evidence-summary.js';

/** A check run as GitHub reports it (recorded from webhook deliveries). */
export interface CheckRun {
  name: string;
  /** GitHub's status: queued, in_progress, completed, waiting, requested, pending. */
  status: string;
  /** GitHub's conclusion once completed: success, failure, neutral, skipped, cancelled, timed_out, ... */
  conclusion: string | null;
  /** completed_at, else started_at, else when it was received; never later than when it was received (a creator sets these freely). */
  produced_at: string;
  details_url: string | null;
  external_id: string | null;
  /**
   * The GitHub App that reported it (the delivery's `check_run.app`): what a pinned `required_checks` entry matches
   * (docs/release-gate.md, "Checks pinned to their source"). Absent, not null, for a check run recorded before
   * shipgate kept sources, so the snapshots of such evidence keep their address.
   */
  app?: CheckRunApp;
}

/** The App that reported a check run: GitHub's numeric id and slug (`github-actions` is 15368); either may be unknown. */
export interface CheckRunApp {
  id: number | null;
  slug: string | null;
}

/** The GitHub Actions workflow run that recorded evidence through its OIDC token. */
export interface WorkflowRun {
  /** `owner/repo`, lower case: the token's `repository` claim. */
  repository: string;
  /** `owner/repo/.github/workflows/ci.yml@refs/heads/main` */
  workflow_ref: string | null;
  run_id: string | null;
  run_attempt: string | null;
  actor: string | null;
  event_name: string | null;
  // Recorded since migration 039 (absent, not null, in older records, so their snapshots keep their address):
  /** `owner/repo/.github/workflows/release.yml@refs/heads/main`: the workflow file the job ran; `evidence_sources` matches it. */
  job_workflow_ref?: string | null;
  /** The commit the run built (the `sha` claim) and the ref it ran on. */
  sha?: string | null;
  ref?: string | null;
  /** GitHub's numeric id of the repository: names can be re-registered, ids cannot. */
  repository_id?: string | null;
}

/** Evidence uploaded through POST /releases/evidence. */
export interface UploadedEvidence {
  kind: string;
  name: string;
  status: 'passed' | 'failed';
  digest: string | null;
  uri: string | null;
  produced_at: string;
  /**
   * Present only when a workflow recorded it with its OIDC token (absent, not null, otherwise:
   * the provenance, and so the snapshot address, of key-recorded evidence stays what it was).
   */
  workflow_run?: WorkflowRun;
  /**
   * The user whose API key recorded it: present for key uploads recorded since migration 039 (absent for older
   * ones, so their snapshots keep their address; their record's `recorded_by` names the user).
   */
  recorded_by_user?: string;
  /**
   * Present only when the upload carried a document (docs/release-gate.md, "Evidence read by content"): its format and the
   * canonical digest of the summary read from it, so a snapshot binds what the evidence contained.
   */
  format?: EvidenceFormat;
  summary_digest?: string;
}

/** A stored document: `digest` is `sha256:<hex>` of its exact bytes, stored once however often they are uploaded. */
export interface EvidenceDocument {
  digest: string;
  format: EvidenceFormat;
  media_type: string;
  size: number;
}

/** What was read from an upload's document when it was uploaded; a decision reads this, never the bytes. */
export interface EvidenceContent {
  /** The evidence record, whose document GET /releases/evidence/{id}/document serves. */
  evidence_id: string;
  format: EvidenceFormat;
  summary: EvidenceSummary;
  /** null once the document was pruned: the summary (and its digest) outlive it. */
  document: EvidenceDocument | null;
}

/** Where an evidence record's document is downloaded (relative to the server's origin). */
export function evidenceDocumentPath(evidenceId: string): string {
  return `/api/v1/releases/evidence/${evidenceId}/document`;
}

/** The newest check run per name and the newest upload per name recorded for one commit. */
export interface CommitEvidence {
  checkRuns: CheckRun[];
  uploads: UploadedEvidence[];
  /** What the documents of those uploads say, by upload name (only uploads that carried one). */
  contents?: Record<string, EvidenceContent>;
}

/** Conclusions GitHub branch protection accepts as passing. */
const PASSING_CONCLUSIONS = new Set(['success', 'neutral', 'skipped']);

export type CheckOutcome = 'pending' | 'passed' | 'failed';

export function checkOutcome(check: Pick<CheckRun, 'status' | 'conclusion'>): CheckOutcome {
  if (check.status !== 'completed') return 'pending';
  return check.conclusion && PASSING_CONCLUSIONS.has(check.conclusion) ? 'passed' : 'failed';
}

export function ageSeconds(producedAt: string, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - Date.parse(producedAt)) / 1000));
}
