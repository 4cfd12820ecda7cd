import type { Knex } from 'knex';
import type { RecentCommitsReader } from '../../../core/release/recent-commits-reader.js';
import { sendSql } from '../../send-sql.js';

// The commits of repository $1 shipgate holds facts for (docs/release-gate.md, "Simulating a gate"): a check run or an
// upload, bound work (an execution or a workflow's), a snapshot, a pull request head's authorship or a merge group.
// Each is first seen at the earliest of those records and of the push that brought it (commit_arrivals, which alone
// admits no commit: a pushed commit nothing was recorded for has nothing to judge). A pull request head's record is
// dated by its last read, later than its first sight when nothing else is recorded for it. Newest first, $2 of them;
// one aggregate over the repository's rows, by the (repo_root, commit_sha) indexes the decision reads.
const RECENT_COMMITS = {
  name: 'release_recent_commits',
  text: `
WITH seen AS (
  SELECT commit_sha, min(created_at) AS at FROM evidence WHERE repo_root = $1 GROUP BY commit_sha
  UNION ALL SELECT commit_sha, min(created_at) FROM executions WHERE repo_root = $1 AND commit_sha IS NOT NULL GROUP BY commit_sha
  UNION ALL SELECT commit_sha, min(created_at) FROM snapshots WHERE repo_root = $1 GROUP BY commit_sha
  UNION ALL SELECT commit_sha, updated_at FROM pull_request_authorship WHERE repo_root = $1
  UNION ALL SELECT head_sha, created_at FROM github_merge_groups WHERE repo_root = $1
)
SELECT s.commit_sha,
  least(min(s.at), (SELECT min(a.arrived_at) FROM commit_arrivals a WHERE a.repo_root = $1 AND a.commit_sha = s.commit_sha)) AS first_seen_at
FROM seen s GROUP BY s.commit_sha
ORDER BY first_seen_at DESC, s.commit_sha
LIMIT $2`,
};

export function createRecentCommitsReader(db: Knex): RecentCommitsReader {
  return {
    async recentCommits(repoRoot, limit) {
      const rows = await sendSql<{ commit_sha: string }>(db, RECENT_COMMITS, [repoRoot, limit]);
      return rows.map((r) => r.commit_sha);
    },
  };
}
