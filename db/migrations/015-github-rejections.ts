import type { Knex } from 'knex';

/**
 * What GitHub refused (docs/github-app.md, "Fitting GitHub's limits"). A 422 to something shipgate
 * posted is never retried; it is recorded on the delivery that asked for the post:
 * `github_deliveries.rejections` holds one `{at, request, status, message}` per refusal (NULL:
 * none). A deployment protection request keeps the delivery that first asked for it
 * (`delivery_id`) and, once GitHub refused its answer, that refusal (`rejection`): such a request
 * is no longer reviewed, by any job or by recovery.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    ALTER TABLE github_deliveries ADD COLUMN rejections jsonb;
    ALTER TABLE deployment_requests ADD COLUMN delivery_id text, ADD COLUMN rejection jsonb;
  `);
}
