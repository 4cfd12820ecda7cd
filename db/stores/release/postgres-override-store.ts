import type { Knex } from 'knex';
import type { CommitFacts } from '../../../core/release/authorship.js';
import type { Override } from '../../../core/release/override.js';
import type { OverrideStore } from '../../../core/release/override-store.js';
import { keysetPage } from '../../keyset-page.js';
import { sendSql } from '../../send-sql.js';
import type { ReleaseOverrideRow } from '../../tables.js';

// Who ran the work bound to these commits: each bound workflow's owner, and the owner of every execution bound to
// them or run in those workflows (core/release/overrider-refusal.ts judges what that means).
const BOUND_WORK_OWNERS = `SELECT w.owner_id FROM workflows w WHERE w.repo_root = $1 AND w.commit_sha = ANY($2)
  UNION SELECT e.owner_id FROM executions e WHERE e.repo_root = $1 AND e.commit_sha = ANY($2)
  UNION SELECT x.owner_id FROM executions x JOIN workflows w ON x.workflow_id = w.id WHERE w.repo_root = $1 AND w.commit_sha = ANY($2)`;

function toOverride(row: ReleaseOverrideRow): Override {
  return {
    id: row.id,
    repo_root: row.repo_root,
    commit_sha: row.commit_sha,
    named: row.named,
    blockers: row.blockers as Override['blockers'],
    reason: row.reason,
    reason_digest: row.reason_digest,
    created_by: row.created_by,
    created_by_login: row.created_by_login,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
    revoked_at: row.revoked_at?.toISOString() ?? null,
    revoked_by: row.revoked_by,
  };
}

// A commit's authors and committers as a read pull request of the repository stored them (migration 021).
const STORED_COMMIT = `SELECT c AS commit FROM pull_request_authorship a CROSS JOIN LATERAL jsonb_array_elements(a.facts->'commits') c
  WHERE a.repo_root = $1 AND $2 = ANY(a.commit_shas) AND a.status = 'read' AND c->>'sha' = $2
  ORDER BY a.updated_at DESC LIMIT 1`;

/** Overrides (migration 047): written and revoked in place, never deleted; migration 047's trigger counts each change. */
export function createOverrideStore(db: Knex): OverrideStore {
  return {
    async addOverride(o) {
      const [row] = await db<ReleaseOverrideRow>('release_overrides')
        .insert({
          repo_root: o.repo_root,
          commit_sha: o.commit_sha,
          named: o.named,
          blockers: JSON.stringify(o.blockers) as unknown as ReleaseOverrideRow['blockers'],
          reason: o.reason,
          reason_digest: o.reason_digest,
          created_by: o.created_by,
          created_by_login: o.created_by_login,
          expires_at: new Date(o.expires_at),
        })
        .returning('*');
      return toOverride(row);
    },
    async getOverride(id) {
      const row = await db<ReleaseOverrideRow>('release_overrides').where({ id }).first();
      return row ? toOverride(row) : null;
    },
    async revokeOverride(id, revokedBy) {
      await db<ReleaseOverrideRow>('release_overrides')
        .where({ id })
        .whereNull('revoked_at')
        .update({ revoked_at: db.fn.now() as unknown as Date, revoked_by: revokedBy });
      const row = await db<ReleaseOverrideRow>('release_overrides').where({ id }).first();
      return row ? toOverride(row) : null;
    },
    listOverrides(repoRoot, page) {
      return keysetPage(db<ReleaseOverrideRow>('release_overrides').select('*').where({ repo_root: repoRoot }), page, toOverride);
    },
    async executionOwners(executionIds) {
      if (executionIds.length === 0) return [];
      const rows = await db('executions').whereIn('id', executionIds).distinct('owner_id');
      return rows.map((r: { owner_id: string }) => r.owner_id);
    },
    async boundWorkOwners(repoRoot, shas) {
      if (shas.length === 0) return [];
      const rows = await sendSql<{ owner_id: string }>(db, BOUND_WORK_OWNERS, [repoRoot, shas]);
      return rows.map((r) => r.owner_id);
    },
    async storedCommit(repoRoot, sha) {
      const [row] = await sendSql<{ commit: CommitFacts }>(db, STORED_COMMIT, [repoRoot, sha]);
      return row?.commit ?? null;
    },
  };
}
