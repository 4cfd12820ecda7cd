import type { Knex } from 'knex';

/**
 * A shipgate user's GitHub account (docs/github-app.md, "Sign in with GitHub"): linked by GitHub's
 * numeric user id, never by e-mail, at most one per user and one user per GitHub account. The login
 * is what the repository-permission lookup asks GitHub about; it is refreshed at each sign-in (a
 * GitHub user may rename). Read on every authenticated request with the key (a primary-key join).
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE TABLE github_identities (
      user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
      github_user_id bigint NOT NULL UNIQUE,
      login text NOT NULL,
      linked_at timestamptz NOT NULL DEFAULT now()
    );
  `);
}
