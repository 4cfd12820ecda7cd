import type { Knex } from 'knex';
import { SESSION_GRACE_MS, type OpenHead, type SessionCoverageRecords, type SessionFacts } from '../../../core/release/session-coverage.js';
import { sendSql } from '../../send-sql.js';

const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

// The arrivals of the commits ($2) in the repository ($1), and the repository's agent sessions
// that were open at some time between the first and the last of them, grace ($3, ms) included:
// a superset of what can cover them, judged by core/release/session-coverage.ts. Sessions are
// found by repository and start (migration 025's partial index). With each, its allowed calls
// whose command mentions a push (a coding agent's governed `git push`; core decides which are).
const SESSION_COVERAGE = {
  name: 'release_session_coverage',
  text: `
WITH arrivals AS (SELECT commit_sha, branch, arrived_at FROM commit_arrivals WHERE repo_root = $1 AND commit_sha = ANY($2::text[]))
SELECT
  (SELECT coalesce(json_agg(json_build_object('sha', commit_sha, 'branch', branch, 'arrived_at', ${iso('arrived_at')})
     ORDER BY commit_sha, branch), '[]'::json) FROM arrivals) AS arrivals,
  (SELECT coalesce(json_agg(json_build_object('id', e.id, 'branch', s.branch, 'status', e.status, 'verdict', e.verdict,
       'started_at', ${iso('e.started_at')}, 'finished_at', ${iso('e.finished_at')}, 'expires_at', ${iso('s.expires_at')},
       'denied_calls', (SELECT count(*) FROM tool_calls t WHERE t.execution_id = e.id AND t.verdict = 'denied'),
       'pushes', (SELECT coalesce(json_agg(json_build_object('seq', t.seq, 'tool', t.tool, 'command', t.arguments->>'command',
           'created_at', ${iso('t.created_at')}, 'duration_ms', t.duration_ms) ORDER BY t.seq), '[]'::json)
         FROM tool_calls t WHERE t.execution_id = e.id AND t.verdict = 'allowed' AND t.arguments->>'command' LIKE '%push%'),
       'policy_name', e.policy_name,
       'stored_severity', (SELECT p.body->>'denied_call_severity' FROM policies p WHERE p.name = e.policy_name AND p.version = e.policy_version))
     ORDER BY e.started_at, e.id), '[]'::json)
   FROM executions e JOIN agent_sessions s ON s.execution_id = e.id
   WHERE e.kind = 'agent_session' AND e.repo_root = $1
     AND e.started_at <= (SELECT max(arrived_at) FROM arrivals)
     AND LEAST(e.finished_at, s.expires_at) + $3::double precision * interval '1 millisecond' >= (SELECT min(arrived_at) FROM arrivals)
  ) AS sessions`,
};

/**
 * When the pull request's commits arrived and the repository's agent sessions that may cover them
 * (docs/mcp-gateway.md, "Sessions and the commits they produced"), each with its policy's name
 * and stored severity (core/release/session-coverage.ts decides which count): read on every
 * decision, not cached.
 */
export async function sessionCoverage(db: Knex, repoRoot: string, shas: string[]): Promise<SessionCoverageRecords> {
  const [row] = await sendSql<SessionCoverageRecords>(db, SESSION_COVERAGE, [repoRoot, shas, SESSION_GRACE_MS]);
  return row;
}

// An agent session ($1) with the open pull requests of its repository whose head arrived since it
// started, each with its head's arrivals: a superset of the heads it may have covered.
const SESSION_OPEN_HEADS = {
  name: 'session_coverage_open_heads',
  text: `
SELECT e.repo_root, s.branch, ${iso('e.started_at')} AS started_at, ${iso('e.finished_at')} AS finished_at, ${iso('s.expires_at')} AS expires_at,
  (SELECT coalesce(json_agg(json_build_object('head_sha', p.head_sha, 'installation_id', p.installation_id,
     'arrivals', (SELECT json_agg(json_build_object('branch', a.branch, 'arrived_at', ${iso('a.arrived_at')}) ORDER BY a.branch)
       FROM commit_arrivals a WHERE a.repo_root = p.repo_root AND a.commit_sha = p.head_sha)) ORDER BY p.number), '[]'::json)
   FROM github_pull_requests p
   WHERE p.repo_root = e.repo_root AND p.state = 'open'
     AND EXISTS (SELECT 1 FROM commit_arrivals a WHERE a.repo_root = p.repo_root AND a.commit_sha = p.head_sha AND a.arrived_at >= e.started_at)
  ) AS heads
FROM executions e JOIN agent_sessions s ON s.execution_id = e.id
WHERE e.id = $1 AND e.repo_root IS NOT NULL`,
};

/** An agent session's window and the open pull requests' heads it may have covered; null when it has no repository (or is gone). */
export async function sessionOpenHeads(
  db: Knex,
  sessionId: string,
): Promise<{
  repo_root: string;
  session: Pick<SessionFacts, 'branch' | 'started_at' | 'finished_at' | 'expires_at'>;
  heads: OpenHead[];
} | null> {
  const [row] = await sendSql<
    Pick<SessionFacts, 'branch' | 'started_at' | 'finished_at' | 'expires_at'> & { repo_root: string; heads: OpenHead[] }
  >(db, SESSION_OPEN_HEADS, [sessionId]);
  if (!row) return null;
  const { repo_root, heads, ...session } = row;
  return {
    repo_root,
    session,
    heads: heads.map((h) => ({ ...h, installation_id: h.installation_id === null ? null : Number(h.installation_id) })),
  };
}
