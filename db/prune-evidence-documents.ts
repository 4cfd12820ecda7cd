import type { Knex } from 'knex';
import { DEFAULT_GATE } from '../core/release/gate.js';
import { sendSql } from './send-sql.js';

/** Documents uploaded this recently are never pruned: an upload in flight may be about to cite them. */
export const DOCUMENT_UPLOAD_GRACE = '1 hour';

/** At most this many documents go per run (every minute), so one run never holds many rows. */
const BATCH = 200;

// $1: the default gate's evidence_max_age_seconds (a repository without a gate of its own), $2: the grace, $3: the batch.
// An evidence row keeps its document while it is fresh for its repository's gate in force (the
// decision still reads it), or while a snapshot of its commit cites it (the snapshot's provenance
// names the evidence by name and digest): such documents are what an attested release says it
// was made from. ON DELETE SET NULL (migration 026) clears the citing rows' document_digest; their
// digest, format and summary stay.
const PRUNE = {
  name: 'release_prune_evidence_documents',
  text: `
DELETE FROM evidence_documents WHERE digest IN (
  SELECT d.digest FROM evidence_documents d
  WHERE d.uploaded_at < now() - $2::interval
    AND NOT EXISTS (
      SELECT 1 FROM evidence e
      WHERE e.document_digest = d.digest
        AND (e.produced_at > now() - make_interval(secs => coalesce(
               (SELECT (g.gate->>'evidence_max_age_seconds')::int FROM gate_versions g
                 WHERE g.repo_root = e.repo_root ORDER BY g.version DESC LIMIT 1), $1))
          OR EXISTS (SELECT 1 FROM snapshots s WHERE s.repo_root = e.repo_root AND s.commit_sha = e.commit_sha
                AND s.provenance->'evidence' @> jsonb_build_array(jsonb_build_object('name', e.name, 'digest', e.digest)))))
  LIMIT $3
  FOR UPDATE SKIP LOCKED)
RETURNING digest`,
};

/**
 * Deletes the evidence documents nothing needs any more (docs/release-gate.md, "Evidence read by content"):
 * those whose every citing evidence row is older than its repository's `evidence_max_age_seconds`
 * and cited by no snapshot, and those no evidence row cites at all. Run with the worker's other prunes.
 */
export async function pruneEvidenceDocuments(db: Knex): Promise<number> {
  const rows = await sendSql<{ digest: string }>(db, PRUNE, [DEFAULT_GATE.evidence_max_age_seconds, DOCUMENT_UPLOAD_GRACE, BATCH]);
  return rows.length;
}
