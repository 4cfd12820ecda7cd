import type { Knex } from 'knex';

/**
 * The GitHub App's own records. `github_deliveries` claims each X-GitHub-Delivery once (its
 * primary key is the claim) and keeps what was done with it, so missed-delivery recovery can
 * later tell a delivery never claimed from one that was. Pull requests and merge groups seen in
 * deliveries say which open heads a check run on a commit concerns.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE TABLE github_deliveries (
      delivery_id text PRIMARY KEY,
      event text NOT NULL,
      action text,
      repo_root text,
      installation_id bigint,
      outcome text NOT NULL CHECK (outcome IN ('queued', 'ignored')),
      reason text,
      received_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX github_deliveries_received_at ON github_deliveries (received_at);

    CREATE TABLE github_pull_requests (
      repo_root text NOT NULL,
      number integer NOT NULL,
      head_sha text NOT NULL,
      head_ref text NOT NULL,
      base_ref text NOT NULL,
      state text NOT NULL CHECK (state IN ('open', 'closed')),
      installation_id bigint,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (repo_root, number)
    );
    CREATE INDEX github_pull_requests_open_head ON github_pull_requests (repo_root, head_sha) WHERE state = 'open';

    CREATE TABLE github_merge_groups (
      repo_root text NOT NULL,
      head_sha text NOT NULL,
      head_ref text NOT NULL,
      base_ref text NOT NULL,
      installation_id bigint,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (repo_root, head_sha)
    );
  `);
}
