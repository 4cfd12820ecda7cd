import type { Knex } from 'knex';
import type { AuthorshipReadTarget, AuthorshipStore } from '../../../core/github/authorship-store.js';
import { enqueueReplacing } from '../../job-queue.js';
import { sendSql } from '../../send-sql.js';

/** Reads asked for one pull request while one waits coalesce into it. */
const jobKey = (target: AuthorshipReadTarget) => `github_authorship:${target.repo_root}#${target.number}`;

// Everyone the stored facts of a pull request (any head) name as assigned, now or formerly (core/release/assignees-seen.ts).
const ASSIGNEES_SEEN = `SELECT DISTINCT jsonb_array_elements_text(coalesce(facts->'assignees', '[]') || coalesce(facts->'former_assignees', '[]')) AS login
  FROM pull_request_authorship WHERE repo_root = $1 AND number = $2 AND facts IS NOT NULL`;

export function createAuthorshipStore(db: Knex): AuthorshipStore {
  return {
    async requestRead(target) {
      await db.transaction(async (trx) => {
        await sendSql(
          trx,
          `INSERT INTO pull_request_authorship (repo_root, commit_sha, number, status) VALUES ($1, $2, $3, 'pending')
          ON CONFLICT (repo_root, commit_sha) DO UPDATE SET status = 'pending'`,
          [target.repo_root, target.head_sha, target.number],
        );
        await enqueueReplacing(trx, 'github_authorship', { ...target, attempt: 0 }, { jobKey: jobKey(target) });
      });
    },

    async retryRead(target, attempt, delaySeconds) {
      await enqueueReplacing(
        db,
        'github_authorship',
        { ...target, attempt },
        { jobKey: jobKey(target), runAt: new Date(Date.now() + delaySeconds * 1000) },
      );
    },

    async assigneesSeen(repoRoot, number) {
      const rows = await sendSql<{ login: string }>(db, ASSIGNEES_SEEN, [repoRoot, number]);
      return rows.map((r) => r.login);
    },

    async save(repoRoot, headSha, record) {
      const commits = record.facts?.commits.map((c) => c.sha) ?? [];
      await sendSql(
        db,
        `INSERT INTO pull_request_authorship (repo_root, commit_sha, number, status, reason, facts, commit_shas, updated_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, now())
        ON CONFLICT (repo_root, commit_sha) DO UPDATE SET number = excluded.number, status = excluded.status, reason = excluded.reason,
          facts = excluded.facts, commit_shas = excluded.commit_shas, updated_at = excluded.updated_at`,
        [repoRoot, headSha, record.number, record.status, record.reason, record.facts ? JSON.stringify(record.facts) : null, commits],
      );
    },
  };
}
