import type { Knex } from 'knex';

/**
 * Check runs recorded with a date in the future (docs/release-gate.md, "Check runs dated in the
 * future"): since stop 48 a check run's time is capped at its delivery's receipt, but rows
 * recorded before kept a creator's `completed_at` of 2099, and with it the rank of the newest of
 * their name and no age. Each is dated back to when shipgate first recorded it (`created_at`):
 * no later than any receipt of it, so it neither outranks a later run nor escapes
 * `evidence_max_age_seconds` (an update received after `created_at` is dated earlier than it
 * was: fail closed). A date not past the migration's own time is left alone.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`UPDATE evidence SET produced_at = created_at WHERE source = 'check_run' AND produced_at > now()`);
}
