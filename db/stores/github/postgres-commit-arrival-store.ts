import type { Knex } from 'knex';
import type { CommitArrivalStore } from '../../../core/github/commit-arrival-store.js';
import { sendSql } from '../../send-sql.js';

// The earliest arrival wins, whichever delivery's job runs first (a redelivery, a retry).
const RECORD_PUSH = {
  name: 'commit_arrivals_record_push',
  text: `
INSERT INTO commit_arrivals (repo_root, commit_sha, branch, arrived_at, delivery_id)
SELECT $1, sha, $2, $3, $4 FROM unnest($5::text[]) AS sha
ON CONFLICT (repo_root, commit_sha, branch) DO UPDATE SET arrived_at = excluded.arrived_at, delivery_id = excluded.delivery_id
WHERE commit_arrivals.arrived_at > excluded.arrived_at`,
};

/** Commit arrivals in PostgreSQL (migration 025). */
export function createCommitArrivalStore(db: Knex): CommitArrivalStore {
  return {
    async recordPush(push, receivedAt) {
      await sendSql(db, RECORD_PUSH, [push.repo_root, push.branch, receivedAt, push.delivery_id, push.shas]);
    },
  };
}
