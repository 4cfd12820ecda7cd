import type { Knex } from 'knex';
import type { CheckRun, UploadedEvidence } from '../../core/release/evidence.js';
import type { CommitState } from '../../core/release/release-store.js';
import type { SnapshotHead } from '../../core/release/snapshot.js';
import type { GateVersionRow } from '../tables.js';
import { toGateVersion } from './release-rows.js';

/** RFC 3339 UTC with milliseconds, truncated like the pg driver's Date: both paths print alike. */
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const HEAD = `id, repo_root, commit_sha, evidence_digest, decision, status, release_label, ${iso('created_at')} AS created_at, ${iso('attested_at')} AS attested_at`;

// Everything a decision reads about a commit except its bound workflows, in ONE round trip:
// the gate, the newest evidence of each name, the latest snapshot and the two latest attested.
const COMMIT_STATE = `
SELECT
  (SELECT to_jsonb(g) FROM gate_versions g WHERE g.repo_root = :repo ORDER BY g.version DESC LIMIT 1) AS gate,
  (SELECT coalesce(jsonb_agg(e), '[]') FROM (
     SELECT DISTINCT ON (source, name) source, kind, name, status, conclusion, digest, uri, details_url, external_id, ${iso('produced_at')} AS produced_at
     FROM evidence WHERE repo_root = :repo AND commit_sha = :sha ORDER BY source, name, produced_at DESC, created_at DESC) e) AS evidence,
  (SELECT to_jsonb(s) FROM (SELECT ${HEAD} FROM snapshots WHERE repo_root = :repo AND commit_sha = :sha ORDER BY seen_at DESC LIMIT 1) s) AS latest,
  (SELECT coalesce(jsonb_agg(s), '[]') FROM (SELECT ${HEAD} FROM snapshots
     WHERE repo_root = :repo AND status IN ('attested', 'promoted') ORDER BY attested_at DESC LIMIT 2) s) AS attested`;

type EvidenceJson = CheckRun & UploadedEvidence & { source: 'check_run' | 'upload' };

interface CommitStateRow {
  gate: (Omit<GateVersionRow, 'created_at'> & { created_at: string }) | null;
  evidence: EvidenceJson[];
  latest: SnapshotHead | null;
  attested: SnapshotHead[];
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

export function createCommitStateReader(db: Knex) {
  return {
    async commitState(repoRoot: string, commitSha: string): Promise<CommitState> {
      // A named (prepared) statement: planned once per connection instead of on every poll.
      const { rows } = await db.raw<{ rows: CommitStateRow[] }>(COMMIT_STATE, { repo: repoRoot, sha: commitSha }).options({ name: 'release_commit_state' });
      const { gate, evidence, latest, attested } = rows[0];
      // Code-unit order, not the database collation: the digest of these lists must not depend on the server.
      evidence.sort(byName);
      return {
        gate: gate ? toGateVersion({ ...gate, created_at: new Date(gate.created_at) }) : null,
        evidence: {
          checkRuns: evidence.filter((e) => e.source === 'check_run').map(({ name, status, conclusion, produced_at, details_url, external_id }) =>
            ({ name, status, conclusion, produced_at, details_url, external_id })),
          uploads: evidence.filter((e) => e.source === 'upload').map(({ kind, name, status, digest, uri, produced_at }) =>
            ({ kind, name, status: status as UploadedEvidence['status'], digest, uri, produced_at })),
        },
        latest,
        attested,
      };
    },
  };
}
