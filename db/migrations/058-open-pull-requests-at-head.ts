import type { Knex } from 'knex';

/**
 * The open pull requests whose head a commit is (docs/release-gate.md, "One pull request per
 * head"): `github_pull_requests` (migration 008) already records each pull request's head and
 * state from the App's deliveries, one row per (repo_root, number); the decision now reads the
 * numbers of the open ones at its commit, and a commit that is the head of more than one is
 * NO_SHIP (core/release/pull-requests-at-head.ts): the authorship stored per head commit
 * (migration 021) is the last read pull request's, so a decoy pull request of the same head
 * would otherwise decide it.
 *
 * The decision's cache (ARCHITECTURE.md, "Process-local state"): a pull request opened, closed or
 * whose head moved bumps the count of its head and of its former head, with a deferred trigger
 * like migration 021's.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE FUNCTION shipgate_pull_request_head_changed() RETURNS trigger
    LANGUAGE plpgsql SET search_path = public AS $$
    BEGIN
      IF TG_OP <> 'DELETE' THEN PERFORM shipgate_bump_commit_version(NEW.repo_root, NEW.head_sha); END IF;
      IF TG_OP <> 'INSERT' AND (TG_OP = 'DELETE' OR ARRAY[OLD.repo_root, OLD.head_sha] IS DISTINCT FROM ARRAY[NEW.repo_root, NEW.head_sha]) THEN
        PERFORM shipgate_bump_commit_version(OLD.repo_root, OLD.head_sha);
      END IF;
      RETURN NULL;
    END
    $$;

    CREATE CONSTRAINT TRIGGER pull_request_head_changed
      AFTER INSERT OR DELETE OR UPDATE OF repo_root, head_sha, state ON github_pull_requests
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION shipgate_pull_request_head_changed();
  `);
}
