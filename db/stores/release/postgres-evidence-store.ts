import type { Knex } from 'knex';
import { sendSql } from '../../send-sql.js';
import type { EvidenceStore, StoredEvidenceDocument } from '../../../core/release/release-store.js';
import type { EvidenceRow } from '../../tables.js';
import { toEvidenceRecord } from './release-rows.js';

/** Moves `ref` to `commit_sha` unless the ref was already seen at a newer commit. */
async function recordRef(
  db: Knex | Knex.Transaction,
  repoRoot: string,
  ref: string | null,
  commitSha: string,
  observedAt: string,
): Promise<void> {
  if (!ref) return;
  await sendSql(
    db,
    `INSERT INTO refs (repo_root, ref, commit_sha, observed_at) VALUES ($1, $2, $3, $4)
    ON CONFLICT (repo_root, ref) DO UPDATE SET commit_sha = excluded.commit_sha, observed_at = excluded.observed_at
    WHERE refs.observed_at <= excluded.observed_at`,
    [repoRoot, ref, commitSha, observedAt],
  );
}

// $1-$11: repo_root, commit_sha, name, status, conclusion, details_url, external_id, ref, produced_at, app_id, app_slug.
// A late delivery of an older state (in_progress after completed) must not undo the completion.
// The ref moves as recordRef moves it. The App that reported a run is the one its first delivery
// named (migration 038): GitHub's check run id belongs to one App.
const ADD_CHECK_RUN = {
  name: 'release_add_check_run',
  text: `
WITH check_run AS (
  INSERT INTO evidence (repo_root, commit_sha, source, kind, name, status, conclusion, details_url, external_id, ref, produced_at, app_id, app_slug)
  VALUES ($1, $2, 'check_run', 'check_run', $3, $4, $5, $6, $7, $8, $9, $10, $11)
  ON CONFLICT (repo_root, commit_sha, external_id) WHERE source = 'check_run' AND external_id IS NOT NULL
  DO UPDATE SET name = excluded.name, status = excluded.status, conclusion = excluded.conclusion, details_url = excluded.details_url,
    ref = coalesce(excluded.ref, evidence.ref), produced_at = excluded.produced_at,
    app_id = coalesce(evidence.app_id, excluded.app_id), app_slug = coalesce(evidence.app_slug, excluded.app_slug)
  WHERE evidence.status <> 'completed' OR excluded.status = 'completed'
)
INSERT INTO refs (repo_root, ref, commit_sha, observed_at) SELECT $1, $8, $2, $9 WHERE $8::text IS NOT NULL
ON CONFLICT (repo_root, ref) DO UPDATE SET commit_sha = excluded.commit_sha, observed_at = excluded.observed_at
WHERE refs.observed_at <= excluded.observed_at`,
};

// The same bytes are stored once (docs/release-gate.md, "Evidence read by content"); a repeated upload
// only moves uploaded_at, which keeps the prune away from a document an upload is about to cite.
const ADD_DOCUMENT = {
  name: 'release_add_evidence_document',
  text: `INSERT INTO evidence_documents (digest, bytes, format, media_type, size) VALUES ($1, $2, $3, $4, $5)
    ON CONFLICT (digest) DO UPDATE SET uploaded_at = now()`,
};

const DOCUMENT_OF_EVIDENCE = {
  name: 'release_evidence_document',
  text: `SELECT e.name AS evidence_name, e.repo_root, d.digest, d.format, d.media_type, d.size, d.bytes
    FROM evidence e JOIN evidence_documents d ON d.digest = e.document_digest WHERE e.id = $1 AND e.source = 'upload'`,
};

const PULL_REQUEST_HEAD = {
  name: 'release_pull_request_head',
  text: 'SELECT head_sha FROM github_pull_requests WHERE repo_root = $1 AND number = $2',
};

const REPOSITORY_IDS = {
  name: 'release_repository_ids',
  text: 'SELECT repository_id::text, owner_id::text FROM github_repositories WHERE repo_root = $1',
};

export function createEvidenceStore(db: Knex): EvidenceStore {
  return {
    async pullRequestHead(repoRoot, number) {
      const [row] = await sendSql<{ head_sha: string }>(db, PULL_REQUEST_HEAD, [repoRoot, number]);
      return row?.head_sha ?? null;
    },
    async repositoryIds(repoRoot) {
      const [row] = await sendSql<{ repository_id: string; owner_id: string }>(db, REPOSITORY_IDS, [repoRoot]);
      return row ?? null;
    },
    async evidenceDocument(evidenceId) {
      const [row] = await sendSql<StoredEvidenceDocument & { bytes: Buffer }>(db, DOCUMENT_OF_EVIDENCE, [evidenceId]);
      return row ?? null;
    },
    async addEvidence(e) {
      const doc = e.document;
      return db.transaction(async (trx) => {
        if (doc) {
          // A view of the document's bytes, not a copy: copying 5 MiB holds the event loop for tens of ms on a machine slow to fault in fresh pages.
          const bytes = Buffer.from(doc.bytes.buffer, doc.bytes.byteOffset, doc.bytes.byteLength);
          await sendSql(trx, ADD_DOCUMENT, [doc.digest, bytes, doc.format, doc.media_type, doc.bytes.length]);
        }
        const [row] = await trx<EvidenceRow>('evidence')
          .insert({
            repo_root: e.repo_root,
            commit_sha: e.commit_sha,
            source: 'upload',
            kind: e.kind,
            name: e.name,
            status: e.status,
            digest: e.digest,
            uri: e.uri,
            ref: e.ref,
            produced_at: new Date(e.produced_at),
            recorded_by: e.recorded_by,
            workflow_run: e.workflow_run,
            // What decisions show as the recorder of a key upload (migration 039).
            recorder: e.recorded_by ? { user_id: e.recorded_by } : null,
            format: doc?.format ?? null,
            summary: (doc?.summary as unknown as Record<string, unknown>) ?? null,
            summary_digest: doc?.summary_digest ?? null,
            document_digest: doc?.digest ?? null,
          })
          .returning('*');
        await recordRef(trx, e.repo_root, e.ref, e.commit_sha, e.produced_at);
        const document = doc ? { digest: doc.digest, format: doc.format, media_type: doc.media_type, size: doc.bytes.length } : null;
        return toEvidenceRecord(row, document);
      });
    },
    // One statement (one round trip, atomic without BEGIN/COMMIT): every webhook delivery of a
    // check run comes here, from the job worker that usually shares the API's process and
    // PostgreSQL (docs/benchmarks.md, the webhook).
    async addCheckRun(c) {
      const app = [c.app?.id ?? null, c.app?.slug ?? null];
      const values = [
        c.repo_root,
        c.commit_sha,
        c.name,
        c.status,
        c.conclusion,
        c.details_url,
        c.external_id,
        c.ref,
        c.produced_at,
        ...app,
      ];
      await sendSql(db, ADD_CHECK_RUN, values);
    },
  };
}
