import type { Knex } from 'knex';
import { sendSql } from '../../send-sql.js';
import type { SnapshotStore } from '../../../core/release/release-store.js';
import type { GateVersionRow, SnapshotRow } from '../../tables.js';
import { createCommitStateReader } from './commit-state.js';
import { certificateEnvelopes } from './commit-work.js';
import { sessionCoverage } from './session-coverage-records.js';
import { SNAPSHOT_HEAD_COLUMNS, toGateVersion, toSnapshot, toSnapshotHead } from './release-rows.js';

const ATTESTED = ['attested', 'promoted'];

// Named (prepared): the badge is polled by every README view, plan it once per connection.
const BADGE_FACTS = {
  name: 'release_badge_facts',
  text: `
SELECT (SELECT (gate->>'public_badge')::boolean FROM gate_versions WHERE repo_root = $1 ORDER BY version DESC LIMIT 1) AS public_badge,
       s.decision, s.status
FROM (SELECT coalesce($2::text, (SELECT commit_sha FROM refs WHERE repo_root = $1 AND ref = ANY($3::text[])
        ORDER BY array_position($3::text[], ref) LIMIT 1)) AS sha) target
LEFT JOIN LATERAL (SELECT decision, status FROM snapshots WHERE repo_root = $1 AND commit_sha = target.sha
        ORDER BY seen_at DESC LIMIT 1) s ON true`,
};

export function createSnapshotStore(db: Knex, cachedCommits: number): SnapshotStore {
  return {
    ...createCommitStateReader(db, cachedCommits),
    certificateEnvelopes: (ids) => certificateEnvelopes(db, ids),
    sessionCoverage: (repoRoot, shas) => sessionCoverage(db, repoRoot, shas),
    async saveSnapshot(s) {
      // clock_timestamp(), not now(): two saves in one transaction must still order by seen_at.
      const rows = await sendSql<SnapshotRow>(
        db,
        `INSERT INTO snapshots (repo_root, commit_sha, evidence_digest, decision, blockers, provenance, seen_at)
        VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, clock_timestamp())
        ON CONFLICT (repo_root, commit_sha, evidence_digest) DO UPDATE SET seen_at = clock_timestamp()
        RETURNING ${SNAPSHOT_HEAD_COLUMNS.join(', ')}`,
        [s.repo_root, s.commit_sha, s.evidence_digest, s.decision, JSON.stringify(s.blockers), JSON.stringify(s.provenance)],
      );
      return toSnapshotHead(rows[0]);
    },
    async getSnapshot(id) {
      const row = await db<SnapshotRow>('snapshots').where({ id }).first();
      return row ? toSnapshot(row) : null;
    },
    async latestAttested(repoRoot, limit) {
      const query = db('snapshots').select(SNAPSHOT_HEAD_COLUMNS).whereIn('status', ATTESTED).orderBy('attested_at', 'desc').limit(limit);
      if (typeof repoRoot === 'string') query.where({ repo_root: repoRoot });
      else if (repoRoot) query.whereIn('repo_root', repoRoot);
      return ((await query) as SnapshotRow[]).map(toSnapshotHead);
    },
    // The repository's newest snapshot is its current release candidate, whatever has since
    // been decided about it: an attested SHIP snapshot must not fall back to an older NO_SHIP one.
    async latestCandidates(repoRoot) {
      const gated = db('gate_versions').distinct('repo_root');
      if (typeof repoRoot === 'string') gated.where({ repo_root: repoRoot });
      else if (repoRoot) gated.whereIn('repo_root', repoRoot);
      const rows = await db
        .select<(SnapshotRow & { gate_row: GateVersionRow | null })[]>(
          's.*',
          db.raw(`(SELECT to_jsonb(g) FROM gate_versions g
          WHERE g.repo_root = s.repo_root ORDER BY g.version DESC LIMIT 1) AS gate_row`),
        )
        .from(db.raw('(?) AS r', [gated]))
        .joinRaw(`CROSS JOIN LATERAL (SELECT * FROM snapshots WHERE repo_root = r.repo_root ORDER BY seen_at DESC LIMIT 1) s`);
      return rows.map((row) => ({
        snapshot: toSnapshot(row),
        gate: row.gate_row ? toGateVersion({ ...row.gate_row, created_at: new Date(row.gate_row.created_at) }) : null,
      }));
    },
    async badgeFacts(repoRoot, commitSha, refs) {
      const [row] = await sendSql<{ public_badge: boolean | null; decision: string | null; status: string | null }>(db, BADGE_FACTS, [
        repoRoot,
        commitSha,
        refs,
      ]);
      return {
        public_badge: row?.public_badge ?? null,
        decision: (row?.decision ?? null) as 'SHIP' | 'NO_SHIP' | null,
        status: (row?.status ?? null) as never,
      };
    },
    async ping() {
      await sendSql(db, 'SELECT 1');
    },
  };
}
