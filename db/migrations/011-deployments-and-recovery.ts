import type { Knex } from 'knex';

/**
 * Deployment protection requests and missed-delivery recovery. `deployment_requests` holds one
 * row per request (a deployment of a workflow run to an environment): its state moves from
 * `waiting` to `approved` or `rejected` exactly once, guarded in SQL, and the answered rows are
 * the deployment record. `github_recovery` is the recovery job's one row: its lease (one runner
 * across replicas) and how far it has looked in the App's delivery list; `github_redeliveries`
 * counts the redeliveries asked for, so a delivery that keeps failing is not asked for forever.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE TABLE deployment_requests (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      repo_root text NOT NULL,
      environment text NOT NULL,
      commit_sha text NOT NULL,
      ref text,
      run_id bigint NOT NULL,
      deployment_id bigint NOT NULL,
      installation_id bigint NOT NULL,
      state text NOT NULL DEFAULT 'waiting' CHECK (state IN ('waiting', 'approved', 'rejected')),
      decision text CHECK (decision IN ('SHIP', 'NO_SHIP')),
      snapshot_id uuid REFERENCES snapshots (id),
      timed_out boolean NOT NULL DEFAULT false,
      comment text,
      requested_at timestamptz NOT NULL DEFAULT now(),
      answered_at timestamptz,
      UNIQUE (repo_root, run_id, environment, deployment_id),
      CHECK ((state = 'waiting') = (answered_at IS NULL))
    );
    CREATE INDEX deployment_requests_waiting ON deployment_requests (repo_root, commit_sha) WHERE state = 'waiting';
    CREATE INDEX deployment_requests_answered ON deployment_requests (answered_at DESC, id DESC) WHERE answered_at IS NOT NULL;
    CREATE INDEX deployment_requests_answered_repo ON deployment_requests (repo_root, answered_at DESC, id DESC) WHERE answered_at IS NOT NULL;

    CREATE TABLE github_recovery (
      id integer PRIMARY KEY CHECK (id = 1),
      newest_delivery_seen bigint,
      lease_owner text,
      lease_until timestamptz,
      last_run_at timestamptz
    );
    INSERT INTO github_recovery (id) VALUES (1);

    CREATE TABLE github_redeliveries (
      delivery_guid text PRIMARY KEY,
      attempts integer NOT NULL,
      requested_at timestamptz NOT NULL DEFAULT now()
    );
  `);
}
