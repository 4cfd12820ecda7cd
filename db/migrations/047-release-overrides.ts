import type { Knex } from 'knex';

/**
 * Overrides of a commit's release blockers (docs/release-gate.md, "Overrides"): who lifted which
 * blockers of which commit, why, until when, and who revoked it. Rows are never deleted: a
 * revocation is recorded on the row. The decision reads a commit's unrevoked overrides, so every
 * write bumps that commit's change count in the same transaction (migration 014's counter, with a
 * deferred trigger like migration 021's); expiry is judged against the clock when the decision is
 * read, never stored.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE TABLE release_overrides (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      repo_root text NOT NULL,
      commit_sha text NOT NULL,
      named text[] NOT NULL,
      blockers jsonb NOT NULL,
      reason text NOT NULL CHECK (char_length(reason) BETWEEN 20 AND 2000),
      reason_digest text NOT NULL,
      created_by uuid NOT NULL REFERENCES users (id),
      created_by_login text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz,
      revoked_by uuid REFERENCES users (id),
      CONSTRAINT release_overrides_expire_after_creation CHECK (expires_at > created_at),
      CONSTRAINT release_overrides_revoked_by_someone CHECK ((revoked_at IS NULL) = (revoked_by IS NULL))
    );
    CREATE INDEX release_overrides_of_commit ON release_overrides (repo_root, commit_sha) WHERE revoked_at IS NULL;
    CREATE INDEX release_overrides_by_repo ON release_overrides (repo_root, created_at DESC, id DESC);
    CREATE INDEX release_overrides_newest ON release_overrides (created_at DESC, id DESC);

    CREATE FUNCTION shipgate_override_changed() RETURNS trigger
    LANGUAGE plpgsql SET search_path = public AS $$
    BEGIN
      -- TG_OP, not "NEW IS NULL": a row with any null column (an unrevoked override) is not IS NOT NULL.
      IF TG_OP <> 'DELETE' THEN PERFORM shipgate_bump_commit_version(NEW.repo_root, NEW.commit_sha); END IF;
      IF TG_OP = 'DELETE' OR OLD.repo_root <> NEW.repo_root OR OLD.commit_sha <> NEW.commit_sha THEN
        PERFORM shipgate_bump_commit_version(OLD.repo_root, OLD.commit_sha);
      END IF;
      RETURN NULL;
    END
    $$;
    CREATE CONSTRAINT TRIGGER release_override_changed AFTER INSERT OR UPDATE OR DELETE ON release_overrides
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION shipgate_override_changed();
  `);
}
