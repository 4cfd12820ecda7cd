import type { Knex } from 'knex';

/**
 * Evidence a GitHub Actions workflow records with its OIDC token (no user, no key) names the run
 * that produced it: repository, workflow ref, run id and attempt, actor, event. Null for
 * evidence recorded with an API key (recorded_by says who) and for check runs.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE evidence ADD COLUMN workflow_run jsonb');
}
