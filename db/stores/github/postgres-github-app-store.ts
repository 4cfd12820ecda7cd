import type { Knex } from 'knex';
import type { DeliveryClaim, GitHubAppStore, RecordedPullRequest } from '../../../core/github/github-app-store.js';
import { groupCommit } from '../../group-commit.js';
import { enqueueReplacing } from '../../job-queue.js';
import { sendSql } from '../../send-sql.js';
import type { GitHubMergeGroupRow, GitHubPullRequestRow } from '../../tables.js';
import { claimDeliveries } from './claim-deliveries.js';
import { recordDeliveryRejection } from './record-github-rejection.js';

function toPullRequest(row: GitHubPullRequestRow): RecordedPullRequest {
  return {
    repo_root: row.repo_root,
    number: row.number,
    head_sha: row.head_sha,
    head_ref: row.head_ref,
    base_ref: row.base_ref,
    state: row.state,
    installation_id: row.installation_id === null ? null : Number(row.installation_id),
  };
}

export function createGitHubAppStore(db: Knex): GitHubAppStore {
  return {
    // Claims arriving while one commits are claimed together by the next (db/group-commit.ts).
    claimDelivery: groupCommit((claims: DeliveryClaim[]) => claimDeliveries(db, claims)),

    async recordRepositoryIds(repoRoot, ids) {
      await sendSql(
        db,
        `INSERT INTO github_repositories (repo_root, repository_id, owner_id) VALUES ($1, $2, $3)
        ON CONFLICT (repo_root) DO UPDATE SET repository_id = excluded.repository_id, owner_id = excluded.owner_id, observed_at = now()
        WHERE (github_repositories.repository_id, github_repositories.owner_id) IS DISTINCT FROM (excluded.repository_id, excluded.owner_id)`,
        [repoRoot, ids.repository_id, ids.owner_id],
      );
    },

    async recordPullRequest(pr, observedAt) {
      await sendSql(
        db,
        `INSERT INTO github_pull_requests (repo_root, number, head_sha, head_ref, base_ref, state, installation_id, updated_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
        ON CONFLICT (repo_root, number) DO UPDATE SET head_sha = excluded.head_sha, head_ref = excluded.head_ref,
          base_ref = excluded.base_ref, state = excluded.state,
          installation_id = coalesce(excluded.installation_id, github_pull_requests.installation_id), updated_at = excluded.updated_at
        WHERE github_pull_requests.updated_at <= excluded.updated_at`,
        [pr.repo_root, pr.number, pr.head_sha, pr.head_ref, pr.base_ref, pr.state, pr.installation_id, observedAt],
      );
    },

    async openPullRequestsAt(repoRoot, sha) {
      const rows = await db<GitHubPullRequestRow>('github_pull_requests')
        .where({ repo_root: repoRoot, head_sha: sha, state: 'open' })
        .orderBy('number');
      return rows.map(toPullRequest);
    },

    async pullRequest(repoRoot, number) {
      const row = await db<GitHubPullRequestRow>('github_pull_requests').where({ repo_root: repoRoot, number }).first();
      return row ? toPullRequest(row) : null;
    },

    async recordMergeGroup(group) {
      await sendSql(
        db,
        `INSERT INTO github_merge_groups (repo_root, head_sha, head_ref, base_ref, installation_id, pull_request_number, pull_request_head_sha)
        VALUES ($1, $2, $3, $4, $5, $6, $7)
        ON CONFLICT (repo_root, head_sha) DO UPDATE SET pull_request_number = excluded.pull_request_number,
          pull_request_head_sha = coalesce(excluded.pull_request_head_sha, github_merge_groups.pull_request_head_sha)
        WHERE (github_merge_groups.pull_request_number, github_merge_groups.pull_request_head_sha)
          IS DISTINCT FROM (excluded.pull_request_number, coalesce(excluded.pull_request_head_sha, github_merge_groups.pull_request_head_sha))`,
        [
          group.repo_root,
          group.head_sha,
          group.head_ref,
          group.base_ref,
          group.installation_id,
          group.pull_request_number,
          group.pull_request_head_sha,
        ],
      );
    },

    async mergeGroupsOf(repoRoot, pullRequestHeadSha) {
      const rows = await sendSql<{ head_sha: string }>(
        db,
        'SELECT head_sha FROM github_merge_groups WHERE repo_root = $1 AND pull_request_head_sha = $2 ORDER BY created_at DESC LIMIT 10',
        [repoRoot, pullRequestHeadSha],
      );
      return rows.map((r) => r.head_sha);
    },

    async mergeGroup(repoRoot, headSha) {
      const row = await db<GitHubMergeGroupRow>('github_merge_groups').where({ repo_root: repoRoot, head_sha: headSha }).first();
      if (!row) return null;
      const installation = row.installation_id === null ? null : Number(row.installation_id);
      return {
        repo_root: row.repo_root,
        head_sha: row.head_sha,
        head_ref: row.head_ref,
        base_ref: row.base_ref,
        installation_id: installation,
        pull_request_number: row.pull_request_number,
        pull_request_head_sha: row.pull_request_head_sha,
      };
    },

    async schedulePublish(target, { delaySeconds = 0, attempt = 0 } = {}) {
      await enqueueReplacing(
        db,
        'github_publish',
        { ...target, attempt },
        {
          jobKey: `github_publish:${target.repo_root}:${target.commit_sha}`,
          // One poster per repository at a time: two jobs never both find "no comment yet" and both create one.
          queueName: `github:${target.repo_root}`,
          runAt: delaySeconds > 0 ? new Date(Date.now() + delaySeconds * 1000) : undefined,
        },
      );
    },

    recordRejection: (deliveryId, rejection) => recordDeliveryRejection(db, deliveryId, rejection),
  };
}
