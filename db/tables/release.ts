import type { WorkflowRun } from '../../core/release/evidence.js';

// The release gate: gate versions, evidence, refs, snapshots and promotions.

export interface GateVersionRow {
  repo_root: string;
  version: number;
  digest: string;
  /** The Gate as JSON, every field present. */
  gate: Record<string, unknown>;
  source: string;
  created_by: string | null;
  created_at: Date;
}

export interface EvidenceRow {
  id: string;
  repo_root: string;
  commit_sha: string;
  /** `check_run` (from GitHub) or `upload` (POST /releases/evidence). */
  source: string;
  kind: string;
  name: string;
  /** Uploads: passed | failed. Check runs: GitHub's status. */
  status: string;
  conclusion: string | null;
  digest: string | null;
  uri: string | null;
  details_url: string | null;
  external_id: string | null;
  ref: string | null;
  produced_at: Date;
  recorded_by: string | null;
  /** Uploads by a workflow through its OIDC token: the run that recorded it. */
  workflow_run: WorkflowRun | null;
  /** Uploads with an API key since migration 039: `{user_id}`, what decisions and snapshots show as its recorder. */
  recorder: { user_id: string } | null;
  /** Uploads with a document (migration 026): its format, the summary read at upload and that summary's canonical digest. */
  format: string | null;
  summary: Record<string, unknown> | null;
  summary_digest: string | null;
  /** The document's `evidence_documents.digest`; null without one, or once it was pruned. */
  document_digest: string | null;
  /** Check runs (migration 038): the GitHub App that reported it, as the delivery named it; null for uploads and older check runs. */
  app_id: string | null;
  app_slug: string | null;
  created_at: Date;
}

/** The exact bytes of an uploaded evidence document, stored once per digest (migration 026). */
export interface EvidenceDocumentRow {
  /** `sha256:<hex>` of `bytes`. */
  digest: string;
  bytes: Buffer;
  format: string;
  media_type: string;
  size: number;
  created_at: Date;
  /** The last upload of these bytes: the prune spares documents uploaded within the last hour. */
  uploaded_at: Date;
}

export interface RefRow {
  repo_root: string;
  ref: string;
  commit_sha: string;
  observed_at: Date;
}

export interface SnapshotRow {
  id: string;
  repo_root: string;
  commit_sha: string;
  evidence_digest: string;
  decision: string;
  blockers: unknown[];
  provenance: Record<string, unknown>;
  status: string;
  release_label: string | null;
  created_at: Date;
  seen_at: Date;
  attested_at: Date | null;
}

export interface PromotionRow {
  id: string;
  snapshot_id: string;
  repo_root: string;
  commit_sha: string;
  from_status: string;
  status: string;
  release_label: string | null;
  metadata: Record<string, unknown>;
  promoted_by: string;
  attestation: { payloadType: string; payload: string; signatures: { keyid: string; sig: string }[] };
  created_at: Date;
}

/** Changes to one commit's release state, counted by triggers (migration 014). */
export interface ReleaseCommitVersionRow {
  repo_root: string;
  commit_sha: string;
  /** bigint: pg returns it as a string. */
  version: string;
}

/** Changes to one repository's release state (its gates, its attested snapshots), counted by triggers (migration 014). */
export interface ReleaseRepoVersionRow {
  repo_root: string;
  version: string;
}

/** An override of a commit's release blockers (migration 047); never deleted, revoked in place. */
export interface ReleaseOverrideRow {
  id: string;
  repo_root: string;
  commit_sha: string;
  /** The blockers as the overrider named them (components or codes). */
  named: string[];
  /** The (code, component) pairs those names matched when the override was made: exactly what it lifts. */
  blockers: { code: string; component: string }[];
  reason: string;
  reason_digest: string;
  created_by: string;
  created_by_login: string;
  created_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  revoked_by: string | null;
}
