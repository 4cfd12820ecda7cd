import type { Knex } from 'knex';

/**
 * The GitHub App registered from the studio through GitHub's manifest flow (docs/github-app.md,
 * "Register the App from the studio"). One row at most (`id` is always 1): a second registration
 * is refused. The client secret, the webhook secret and the private key are sealed with
 * SHIPGATE_SECRET_KEY (core/executions/seal-secret.ts, the registration's app id as context); the
 * plain PEM never reaches the database. `registered_at` is what every replica compares, every few
 * seconds, to pick a registration up without a restart.
 *
 * `github_app_manifest_states` holds each manifest form's single-use `state`, by its SHA-256
 * only, until the callback takes it or it expires (10 minutes).
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE TABLE github_app_registrations (
      id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
      app_id bigint NOT NULL,
      slug text NOT NULL,
      owner_login text,
      html_url text,
      client_id text NOT NULL,
      client_secret_ciphertext text NOT NULL,
      webhook_secret_ciphertext text NOT NULL,
      private_key_ciphertext text NOT NULL,
      registered_by uuid REFERENCES users (id) ON DELETE SET NULL,
      registered_at timestamptz NOT NULL DEFAULT clock_timestamp()
    );
    CREATE TABLE github_app_manifest_states (
      state_sha256 text PRIMARY KEY,
      organization text,
      created_by uuid REFERENCES users (id) ON DELETE CASCADE,
      expires_at timestamptz NOT NULL
    );
  `);
}
