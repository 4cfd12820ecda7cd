import type { Knex } from 'knex';

/**
 * Repository access no user can widen by themselves (docs/api.md, "Repository access"):
 * - `users.service_account`: set by an ADMIN only; an account without a GitHub link keeps
 *   role-only access under `github` only when it is one (a CI key's account).
 * - `users.repo_access_github_id`: the GitHub account (numeric id) the user's repository access is
 *   checked against. The trigger sets it whenever a link is written, by any path (sign-in, link,
 *   re-link), and nothing clears it: removing the link (github_identities' row) leaves the user
 *   checked against GitHub, so unlinking never widens access. Not unique: a GitHub account an
 *   ADMIN unlinked from one user may be linked to another, and both stay checked against it.
 * Existing links are copied; accounts unlinked before this migration cannot be told apart from
 * ones never linked (shipgate logs them at start: docs/operations.md, "Security").
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    ALTER TABLE users
      ADD COLUMN service_account boolean NOT NULL DEFAULT false,
      ADD COLUMN repo_access_github_id bigint;
    UPDATE users SET repo_access_github_id = g.github_user_id FROM github_identities g WHERE g.user_id = users.id;
    CREATE FUNCTION remember_github_link() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE users SET repo_access_github_id = NEW.github_user_id WHERE id = NEW.user_id;
      RETURN NULL;
    END $$;
    CREATE TRIGGER github_link_remembered AFTER INSERT OR UPDATE OF github_user_id ON github_identities
      FOR EACH ROW EXECUTE FUNCTION remember_github_link();
  `);
}
