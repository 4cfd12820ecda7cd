import type { Knex } from 'knex';

/**
 * "Sign in with GitHub" (docs/github-app.md): a user created by a first GitHub sign-in has no
 * password (`password_hash` NULL: /auth/login refuses it, saying it signs in with GitHub); the
 * authorization states (single-use, 10 minutes, stored as their SHA-256, with the PKCE verifier and
 * who is linking); and the one-time codes the studio exchanges for its key (single-use, 1 minute,
 * stored as their SHA-256). Taking a state or a code deletes its row, so neither works twice.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    ALTER TABLE users ALTER COLUMN password_hash DROP NOT NULL;
    CREATE TABLE github_sign_in_states (
      state_sha256 text PRIMARY KEY,
      code_verifier text NOT NULL,
      link_user_id uuid REFERENCES users (id) ON DELETE CASCADE,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX github_sign_in_states_expiry ON github_sign_in_states (expires_at);
    CREATE TABLE github_sign_in_codes (
      code_sha256 text PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX github_sign_in_codes_expiry ON github_sign_in_codes (expires_at);
  `);
}
