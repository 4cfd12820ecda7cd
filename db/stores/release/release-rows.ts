import type { DsseEnvelope } from '../../../core/certificates/types.js';
import type { Blocker } from '../../../core/release/blocker.js';
import type { EvidenceFormat } from '../../../core/evidence-content/evidence-format.js';
import type { EvidenceSummary } from '../../../core/evidence-content/evidence-summary.js';
import type { EvidenceDocument, UploadedEvidence } from '../../../core/release/evidence.js';
import type { Decision } from '../../../core/release/evaluate-decision.js';
import { DEFAULT_GATE, type Gate, type GateVersion } from '../../../core/release/gate.js';
import type { Promotion, PromotionTarget } from '../../../core/release/promotion.js';
import type { EvidenceRecord } from '../../../core/release/release-store.js';
import type { Provenance, Snapshot, SnapshotHead, SnapshotStatus } from '../../../core/release/snapshot.js';
import type { EvidenceRow, GateVersionRow, PromotionRow, SnapshotRow } from '../../tables.js';

/** Row -> domain mappers of the release tables (timestamps become RFC 3339 UTC strings). */
export function toGateVersion(row: GateVersionRow): GateVersion {
  return {
    repo_root: row.repo_root,
    version: row.version,
    digest: row.digest,
    // Versions stored before a field existed read with its default.
    gate: { ...DEFAULT_GATE, ...(row.gate as Gate) },
    source: row.source as GateVersion['source'],
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
  };
}

export function toUploadedEvidence(row: EvidenceRow): UploadedEvidence {
  return {
    kind: row.kind,
    name: row.name,
    status: row.status as UploadedEvidence['status'],
    digest: row.digest,
    uri: row.uri,
    produced_at: row.produced_at.toISOString(),
  };
}

/** `document`: the row's document (its digest, format, media type and size), when it has one. */
export function toEvidenceRecord(row: EvidenceRow, document: EvidenceDocument | null): EvidenceRecord {
  return {
    id: row.id,
    repo_root: row.repo_root,
    commit_sha: row.commit_sha,
    ref: row.ref,
    ...toUploadedEvidence(row),
    recorded_by: row.recorded_by,
    workflow_run: row.workflow_run,
    format: (row.format as EvidenceFormat | null) ?? null,
    summary: (row.summary as EvidenceSummary | null) ?? null,
    document,
    created_at: row.created_at.toISOString(),
  };
}

/** The columns of a SnapshotHead: polling never reads the jsonb blockers and provenance. */
export const SNAPSHOT_HEAD_COLUMNS = [
  'id',
  'repo_root',
  'commit_sha',
  'evidence_digest',
  'decision',
  'status',
  'release_label',
  'created_at',
  'attested_at',
];

export function toSnapshotHead(row: Omit<SnapshotRow, 'blockers' | 'provenance' | 'seen_at'>): SnapshotHead {
  return {
    id: row.id,
    repo_root: row.repo_root,
    commit_sha: row.commit_sha,
    evidence_digest: row.evidence_digest,
    decision: row.decision as Decision,
    status: row.status as SnapshotStatus,
    release_label: row.release_label,
    created_at: row.created_at.toISOString(),
    attested_at: row.attested_at?.toISOString() ?? null,
  };
}

export function toSnapshot(row: SnapshotRow): Snapshot {
  return { ...toSnapshotHead(row), blockers: row.blockers as Blocker[], provenance: row.provenance as unknown as Provenance };
}

export function toPromotion(row: PromotionRow): Promotion {
  return {
    id: row.id,
    snapshot_id: row.snapshot_id,
    repo_root: row.repo_root,
    commit_sha: row.commit_sha,
    from_status: row.from_status as SnapshotStatus,
    status: row.status as PromotionTarget,
    release_label: row.release_label,
    metadata: row.metadata,
    promoted_by: row.promoted_by,
    created_at: row.created_at.toISOString(),
    attestation: row.attestation as DsseEnvelope,
  };
}
