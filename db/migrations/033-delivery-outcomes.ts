import type { Knex } from 'knex';

/**
 * What became of each received delivery, for the ADMIN's deliveries page (docs/github-app.md,
 * "When the check didn't show up"). `outcome` stays the claim's verdict (queued or ignored); the
 * github_delivery job writes how its work ended: `result` processed or failed, `error` (the last
 * failed attempt's message: the reason once failed, the retry's cause while still queued),
 * `attempts`, and when the last attempt started and finished. A receipt of an id already claimed
 * (a duplicate) counts in `duplicates` with `last_duplicate_at`: one statement, only on a duplicate.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    ALTER TABLE github_deliveries
      ADD COLUMN result text CHECK (result IN ('processed', 'failed')),
      ADD COLUMN error text,
      ADD COLUMN attempts integer NOT NULL DEFAULT 0,
      ADD COLUMN started_at timestamptz,
      ADD COLUMN finished_at timestamptz,
      ADD COLUMN duplicates integer NOT NULL DEFAULT 0,
      ADD COLUMN last_duplicate_at timestamptz;
  `);
}
