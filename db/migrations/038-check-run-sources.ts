import type { Knex } from 'knex';

/**
 * Who reported each check run: the GitHub App's id and slug from the delivery's `check_run.app`
 * (docs/release-gate.md, "Checks pinned to their source"). A pinned `required_checks` entry counts
 * only its App's check runs, so a commit keeps the newest check run of each name per App, not per
 * name alone: a later check of the same name from another App cannot hide the real one. Null for
 * uploads and for check runs recorded before this migration (their source is unknown, and so they
 * never satisfy a pinned entry).
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE evidence ADD COLUMN app_id bigint, ADD COLUMN app_slug text');
}
