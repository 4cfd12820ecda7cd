import type { Knex } from 'knex';

/**
 * "Sign in with GitHub" bound to the browser that started it (docs/github-app.md, "Sign in with
 * GitHub"): each state keeps the SHA-256 of the nonce its start put in a cookie of that browser, and
 * the callback requires it. States from before carry no nonce and could be finished by any browser,
 * so they are dropped (each lived 10 minutes; a sign-in under way starts again). A one-time code may
 * now also carry a pending link (the GitHub account the callback saw, by numeric id and login): only
 * the key of the user who started the link finishes it.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    DELETE FROM github_sign_in_states;
    ALTER TABLE github_sign_in_states ADD COLUMN browser_nonce_sha256 text NOT NULL;
    ALTER TABLE github_sign_in_codes
      ADD COLUMN link_github_user_id text,
      ADD COLUMN link_github_login text,
      ADD CONSTRAINT github_sign_in_codes_link CHECK ((link_github_user_id IS NULL) = (link_github_login IS NULL));
  `);
}
