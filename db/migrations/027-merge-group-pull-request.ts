import type { Knex } from 'knex';

/**
 * A merge group's pull request (docs/release-gate.md, "Agents on pull requests"): the number its
 * queue branch names (`gh-readonly-queue/<base>/pr-<N>-<sha>`) and that pull request's head when
 * the group was recorded. The decision on the group's own commit reads the authorship stored for
 * that head (migration 021), so the agent rules of the pull request apply to the group commit
 * too: in `GET /releases/decision`, the badge, the check run and the deployment rule alike.
 *
 * Groups recorded before are filled in from their branch and the recorded pull requests.
 *
 * The decision's cache (ARCHITECTURE.md, "Process-local state"): a change to the group row, to
 * the authorship of its pull request's head, or to the governed work on any commit of that pull
 * request bumps the group commit's count, with deferred triggers like migration 021's.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    ALTER TABLE github_merge_groups ADD COLUMN pull_request_number integer, ADD COLUMN pull_request_head_sha text;
    UPDATE github_merge_groups
      SET pull_request_number = substring(head_ref from '^(?:refs/heads/)?gh-readonly-queue/.+/pr-([0-9]{1,9})-[0-9a-fA-F]{40}$')::integer;
    UPDATE github_merge_groups g SET pull_request_head_sha = p.head_sha
      FROM github_pull_requests p WHERE p.repo_root = g.repo_root AND p.number = g.pull_request_number;
    CREATE INDEX github_merge_groups_pull_request_head ON github_merge_groups (repo_root, pull_request_head_sha)
      WHERE pull_request_head_sha IS NOT NULL;

    CREATE FUNCTION shipgate_merge_group_authorship_changed() RETURNS trigger
    LANGUAGE plpgsql SET search_path = public AS $$
    BEGIN
      IF TG_TABLE_NAME = 'github_merge_groups' THEN
        PERFORM shipgate_bump_commit_version(NEW.repo_root, NEW.head_sha);
        IF ARRAY[OLD.repo_root, OLD.head_sha] IS DISTINCT FROM ARRAY[NEW.repo_root, NEW.head_sha] THEN
          PERFORM shipgate_bump_commit_version(OLD.repo_root, OLD.head_sha);
        END IF;
        RETURN NULL;
      END IF;
      IF TG_TABLE_NAME = 'pull_request_authorship' THEN
        PERFORM shipgate_bump_commit_version(g.repo_root, g.head_sha) FROM github_merge_groups g
        WHERE (g.repo_root = NEW.repo_root AND g.pull_request_head_sha = NEW.commit_sha)
           OR (g.repo_root = OLD.repo_root AND g.pull_request_head_sha = OLD.commit_sha);
        RETURN NULL;
      END IF;
      -- A workflow or execution: the groups of the pull requests that contain its commit, the head included.
      IF NEW.commit_sha IS NULL AND OLD.commit_sha IS NULL THEN RETURN NULL; END IF;
      PERFORM shipgate_bump_commit_version(g.repo_root, g.head_sha)
      FROM pull_request_authorship a JOIN github_merge_groups g ON g.repo_root = a.repo_root AND g.pull_request_head_sha = a.commit_sha
      WHERE (a.repo_root = NEW.repo_root AND a.commit_shas @> ARRAY[NEW.commit_sha]::text[])
         OR (a.repo_root = OLD.repo_root AND a.commit_shas @> ARRAY[OLD.commit_sha]::text[]);
      RETURN NULL;
    END
    $$;

    CREATE CONSTRAINT TRIGGER merge_group_changed AFTER INSERT OR UPDATE OR DELETE ON github_merge_groups
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION shipgate_merge_group_authorship_changed();
    CREATE CONSTRAINT TRIGGER merge_group_authorship_changed AFTER INSERT OR UPDATE OR DELETE ON pull_request_authorship
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION shipgate_merge_group_authorship_changed();
    CREATE CONSTRAINT TRIGGER merge_group_commit_changed AFTER INSERT OR UPDATE OR DELETE ON workflows
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION shipgate_merge_group_authorship_changed();
    -- The columns "governed work" reads (status, verdict, workflow_id) and the binding; not cost_cents.
    CREATE CONSTRAINT TRIGGER merge_group_commit_changed
      AFTER INSERT OR DELETE OR UPDATE OF status, verdict, workflow_id, repo_root, commit_sha ON executions
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION shipgate_merge_group_authorship_changed();
  `);
}
