import type { Knex } from 'knex';

/**
 * Who made a pull request, per head commit (docs/release-gate.md, "Agents on pull requests"):
 * its author, assignees, commits with their identities and co-authors, and reviews with the
 * reviewers' permissions, read from GitHub by the `github_authorship` job. `commit_shas` lists
 * the pull request's commits, so governed work bound to an earlier commit is found.
 *
 * The decision reads this table and the workflows and executions bound to any of the listed
 * commits, so (ARCHITECTURE.md, "Process-local state", the decision's cache) a change to the row
 * bumps its head commit's count, and a change to a workflow or execution bumps the count of
 * every pull request head whose commits include its commit (migration 014 already counts the
 * head's own), with the deferred triggers of migration 014.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE TABLE pull_request_authorship (
      repo_root text NOT NULL,
      commit_sha text NOT NULL,
      number integer NOT NULL,
      status text NOT NULL CHECK (status IN ('pending', 'read', 'unreadable', 'commit_limit')),
      reason text,
      facts jsonb,
      commit_shas text[] NOT NULL DEFAULT '{}',
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (repo_root, commit_sha)
    );
    CREATE INDEX pull_request_authorship_commits ON pull_request_authorship USING gin (commit_shas);

    CREATE FUNCTION shipgate_authorship_changed() RETURNS trigger
    LANGUAGE plpgsql SET search_path = public AS $$
    BEGIN
      IF TG_TABLE_NAME = 'pull_request_authorship' THEN
        PERFORM shipgate_bump_commit_version(NEW.repo_root, NEW.commit_sha);
        IF ARRAY[OLD.repo_root, OLD.commit_sha] IS DISTINCT FROM ARRAY[NEW.repo_root, NEW.commit_sha] THEN
          PERFORM shipgate_bump_commit_version(OLD.repo_root, OLD.commit_sha);
        END IF;
        RETURN NULL;
      END IF;
      -- A workflow or execution: the heads of the pull requests that contain its commit.
      IF NEW.commit_sha IS NULL AND OLD.commit_sha IS NULL THEN RETURN NULL; END IF;
      PERFORM shipgate_bump_commit_version(a.repo_root, a.commit_sha)
      FROM pull_request_authorship a
      WHERE (a.repo_root = NEW.repo_root AND a.commit_shas @> ARRAY[NEW.commit_sha]::text[] AND a.commit_sha <> NEW.commit_sha)
         OR (a.repo_root = OLD.repo_root AND a.commit_shas @> ARRAY[OLD.commit_sha]::text[] AND a.commit_sha <> OLD.commit_sha);
      RETURN NULL;
    END
    $$;

    CREATE CONSTRAINT TRIGGER authorship_changed AFTER INSERT OR UPDATE OR DELETE ON pull_request_authorship
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION shipgate_authorship_changed();
    CREATE CONSTRAINT TRIGGER authorship_commit_changed AFTER INSERT OR UPDATE OR DELETE ON workflows
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION shipgate_authorship_changed();
    -- The columns "governed work" reads (status, verdict, workflow_id) and the binding; not cost_cents.
    CREATE CONSTRAINT TRIGGER authorship_commit_changed
      AFTER INSERT OR DELETE OR UPDATE OF status, verdict, workflow_id, repo_root, commit_sha ON executions
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION shipgate_authorship_changed();
  `);
}
