import type { Knex } from 'knex';

/**
 * A commit's first decision writes its snapshot; how much WAL that write makes must not grow
 * with the history (docs/benchmarks.md, "What moved the figures"). After each checkpoint, the
 * first change to an index page logs the whole page (full_page_writes). A new snapshot lands on
 * a random page of every index keyed by something random, and in a long history that page was
 * almost never changed since the last checkpoint: measured at 20,000 commits, about three 8 KB
 * page images per first decision (25 KB of WAL to flush) against none at 200 commits.
 * - Snapshot ids are time-ordered (UUIDv7 layout: milliseconds since the epoch, then random
 *   bits), so the primary key grows at its right edge like a sequence.
 * - `snapshots_commit_latest` goes: the unique index on (repo_root, commit_sha,
 *   evidence_digest) finds a commit's snapshots as well, and the newest of those few is picked
 *   by seen_at. One commit-keyed index per snapshot is left (content addressing needs it).
 * - `snapshots_candidates` goes: no statement reads it (a repository's newest snapshot is looked
 *   up whatever its status), and each new snapshot changed a page of it per repository.
 * - A commit's change counter (migration 014), bumped by its first snapshot, is updated in place
 *   (fillfactor 50 leaves room on its page): a counter row moved to another page also wrote an
 *   entry into a random page of the counters' primary key.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE FUNCTION shipgate_time_ordered_uuid() RETURNS uuid
    LANGUAGE sql VOLATILE SET search_path = pg_catalog AS $$
      SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
        PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6),
        52, 1), 53, 1), 'hex')::uuid
    $$;
    ALTER TABLE snapshots ALTER COLUMN id SET DEFAULT shipgate_time_ordered_uuid();
    DROP INDEX snapshots_commit_latest;
    DROP INDEX snapshots_candidates;
    ALTER TABLE release_commit_versions SET (fillfactor = 50);
  `);
}
