import type { AuthorshipBlock } from './authorship.js';
import type { Blocker } from './blocker.js';
import type { BoundWorkflow } from './bound-workflow.js';
import type { CheckRun, UploadedEvidence } from './evidence.js';
import type { Decision } from './evaluate-decision.js';
import type { OverrideBinding } from './override.js';

export const SNAPSHOT_STATUSES = ['candidate', 'attested', 'promoted', 'rejected', 'revoked'] as const;
export type SnapshotStatus = (typeof SNAPSHOT_STATUSES)[number];

/** The evidence a decision was made from, exactly as evaluated; its digest addresses the snapshot. */
export interface Provenance {
  gate: { version: number; digest: string };
  check_runs: CheckRun[];
  evidence: UploadedEvidence[];
  workflows: BoundWorkflow[];
  /**
   * Who made the pull request whose head the commit is, and every approval with whether it
   * counted; absent (not null) for a commit no pull request names, so such snapshots keep their
   * address.
   */
  authorship?: AuthorshipBlock;
  /**
   * The overrides that lifted blockers of this decision: who, the reason's digest, until when, which
   * blockers (docs/release-gate.md, "Overrides"); absent when none did, so other snapshots keep their address.
   */
  overrides?: OverrideBinding[];
}

/** The evaluated evidence of one commit, stored once per distinct evidence digest. */
export interface Snapshot {
  id: string;
  repo_root: string;
  commit_sha: string;
  evidence_digest: string;
  decision: Decision;
  blockers: Blocker[];
  provenance: Provenance;
  status: SnapshotStatus;
  release_label: string | null;
  created_at: string;
  attested_at: string | null;
}

/** A snapshot without its (large) blockers and provenance: what polling and baselines need. */
export type SnapshotHead = Omit<Snapshot, 'blockers' | 'provenance'>;

export type NewSnapshot = Pick<Snapshot, 'repo_root' | 'commit_sha' | 'evidence_digest' | 'decision' | 'blockers' | 'provenance'>;

/** The release a decision is compared against: the repository's latest attested (or promoted) snapshot. */
export interface Baseline {
  snapshot_id: string;
  commit_sha: string;
  release_label: string | null;
  attested_at: string;
}

export function toBaseline(snapshot: SnapshotHead): Baseline {
  return {
    snapshot_id: snapshot.id,
    commit_sha: snapshot.commit_sha,
    release_label: snapshot.release_label,
    attested_at: snapshot.attested_at ?? snapshot.created_at,
  };
}
