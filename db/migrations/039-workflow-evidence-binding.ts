import type { Knex } from 'knex';

/**
 * Who recorded each piece of evidence, and the numeric ids that bind a workflow's token to its
 * repository (docs/release-gate.md, "Evidence from workflows"):
 * - `evidence.recorder`: what decisions and snapshots show as the recorder of a key upload,
 *   `{"user_id": ...}`; null for a workflow's upload (its `workflow_run`, which since this
 *   migration also holds the token's `job_workflow_ref`, `sha`, `ref` and `repository_id`, shows
 *   it) and for rows recorded before, whose snapshots so keep their address;
 * - `github_repositories`: the numeric ids of a repository and its owner as the App's deliveries
 *   last named them, which an OIDC token's `repository_id` and `repository_owner_id` must match.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE evidence ADD COLUMN recorder jsonb');
  await db.raw(`CREATE TABLE github_repositories (
    repo_root text PRIMARY KEY,
    repository_id bigint NOT NULL,
    owner_id bigint NOT NULL,
    observed_at timestamptz NOT NULL DEFAULT now()
  )`);
}
