import type { Knex } from 'knex';

/**
 * The decision's read of a commit's bound executions, served from indexes (ARCHITECTURE.md,
 * "Sending SQL"):
 * - `certificates.envelope_sha256` is the SHA-256 (hex) of an execution certificate's envelope
 *   JSON text as stored (null for other kinds), a generated column: PostgreSQL recomputes it whenever the envelope changes, so it always
 *   names the bytes actually stored (it is the verification cache's key). A partial index of
 *   execution certificates carries it, so the newest one of an execution is read from the index.
 * - executions are found by commit with the columns a decision reads carried by the index.
 * Adding a stored generated column rewrites `certificates` once.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    -- convert_to() is only STABLE (it depends on the database encoding, which never changes).
    CREATE FUNCTION shipgate_text_sha256(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
      AS $$ SELECT encode(sha256(convert_to($1, 'UTF8')), 'hex') $$;
    -- Only execution certificates: a decision never looks up the others, and each tool call stores one.
    ALTER TABLE certificates ADD COLUMN envelope_sha256 text
      GENERATED ALWAYS AS (CASE WHEN kind = 'execution' THEN shipgate_text_sha256(envelope::text) END) STORED;
    CREATE INDEX certificates_newest_execution ON certificates (execution_id, ordinal DESC) INCLUDE (id, envelope_sha256)
      WHERE kind = 'execution';
    CREATE INDEX executions_commit_bound ON executions (repo_root, commit_sha)
      INCLUDE (created_at, id, owner_id, workflow_id, stage_id, stage_role, status, verdict, upstream_execution_ids);
    DROP INDEX executions_repo_root_commit_sha_index;
  `);
}
