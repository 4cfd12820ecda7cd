import type { Knex } from 'knex';

/**
 * Evidence read by its content (docs/release-gate.md, "Evidence read by content"): the exact bytes of an
 * uploaded document (JUnit, SARIF, CycloneDX, SPDX, in-toto provenance), stored once per SHA-256
 * (`digest`, `sha256:<hex>`) however often they are uploaded, and on each evidence row the format,
 * the normalised summary read at upload, the canonical digest of that summary (what a snapshot
 * binds) and the document it was read from.
 *
 * `uploaded_at` moves with every upload of the same bytes: the prune leaves documents uploaded
 * within the last hour alone, so an upload in flight never loses its document. A pruned document
 * leaves its evidence rows with their digest and summary (`document_digest` becomes null).
 * The evidence table's change-counter trigger (migration 014) already counts every column. The
 * decision also reads a document's digest, format, media type and size, which never change; a
 * pruned document nulls its evidence rows' document_digest, which that trigger counts (ARCHITECTURE.md,
 * "How to add a migration": the decision's cache).
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE TABLE evidence_documents (
      digest text PRIMARY KEY,
      bytes bytea NOT NULL,
      format text NOT NULL,
      media_type text NOT NULL,
      size integer NOT NULL CHECK (size >= 0),
      created_at timestamptz NOT NULL DEFAULT now(),
      uploaded_at timestamptz NOT NULL DEFAULT now()
    );
    ALTER TABLE evidence
      ADD COLUMN format text,
      ADD COLUMN summary jsonb,
      ADD COLUMN summary_digest text,
      ADD COLUMN document_digest text REFERENCES evidence_documents (digest) ON DELETE SET NULL;
    CREATE INDEX evidence_document_digest ON evidence (document_digest) WHERE document_digest IS NOT NULL;
  `);
}
