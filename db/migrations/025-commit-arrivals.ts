import type { Knex } from 'knex';

/**
 * When shipgate received the push that brought each commit to each branch (docs/mcp-gateway.md,
 * "Sessions and the commits they produced"): the GitHub App's `push` deliveries, timed by
 * shipgate's clock (the delivery's reception), never by the commit's own date. One row per
 * repository, commit and branch, holding the earliest arrival.
 *
 * The decision reads the arrivals of a pull request's commits and the agent sessions of its
 * repository on every evaluation, outside the decision's cache (an open session's calls change
 * what it covers), so nothing here bumps the cache's counts. Sessions are found by repository
 * and start (`executions_agent_sessions`).
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE TABLE commit_arrivals (
      repo_root text NOT NULL,
      commit_sha text NOT NULL,
      branch text NOT NULL,
      arrived_at timestamptz NOT NULL,
      delivery_id text NOT NULL,
      PRIMARY KEY (repo_root, commit_sha, branch)
    );
    CREATE INDEX executions_agent_sessions ON executions (repo_root, started_at) WHERE kind = 'agent_session';
  `);
}
