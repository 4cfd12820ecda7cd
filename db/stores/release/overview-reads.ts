import type { Knex } from 'knex';
import type { Blocker, BlockerCode } from '../../../core/release/blocker.js';
import type { Decision } from '../../../core/release/evaluate-decision.js';
import type { EvidenceFormat } from '../../../core/evidence-content/evidence-format.js';
import type { Page, PageRequest } from '../../../core/pagination.js';
import type { EvidenceRecord } from '../../../core/release/release-store.js';
import type { SnapshotStatus } from '../../../core/release/snapshot.js';
import { keysetPage } from '../../keyset-page.js';
import { sendSql } from '../../send-sql.js';
import type { EvidenceRow } from '../../tables.js';
import { toEvidenceRecord } from './release-rows.js';

/** A commit shipgate has decided, as its newest snapshot says (docs/api.md, "Release overview"). */
export interface ReleaseCommit {
  commit_sha: string;
  decision: Decision;
  blocker_codes: BlockerCode[];
  snapshot_id: string;
  snapshot_status: SnapshotStatus;
  release_label: string | null;
  evaluated_at: string;
  pull_request_number: number | null;
  /** The rules that applied to the pull request, met or not (docs/release-gate.md, "Rules"); null when the decision judged none. */
  rules: { name: string; met: boolean }[] | null;
}

export interface ReleaseHistory {
  per_day: { day: string; ship: number; no_ship: number }[];
  top_blockers: { code: BlockerCode; count: number }[];
}

interface CommitRow {
  id: string;
  created_at: Date;
  commit_sha: string;
  decision: string;
  status: string;
  release_label: string | null;
  blockers: Blocker[];
  pull_request_number: number | null;
}

// Each commit counts once per UTC day, with the decision of its snapshot last evaluated that day.
const DAILY_DECISIONS = `
WITH win AS (SELECT (now() AT TIME ZONE 'UTC')::date - ($2::int - 1) AS first_day),
daily AS (
  SELECT DISTINCT ON (s.commit_sha, (s.seen_at AT TIME ZONE 'UTC')::date)
    s.commit_sha, (s.seen_at AT TIME ZONE 'UTC')::date AS day, s.decision, s.blockers
  FROM snapshots s, win WHERE s.repo_root = $1 AND s.seen_at >= (win.first_day::timestamp AT TIME ZONE 'UTC')
  ORDER BY s.commit_sha, (s.seen_at AT TIME ZONE 'UTC')::date, s.seen_at DESC)`;

const PER_DAY = `${DAILY_DECISIONS}
SELECT to_char(d.day, 'YYYY-MM-DD') AS day,
  count(daily.decision) FILTER (WHERE daily.decision = 'SHIP')::int AS ship,
  count(daily.decision) FILTER (WHERE daily.decision = 'NO_SHIP')::int AS no_ship
FROM win CROSS JOIN LATERAL generate_series(win.first_day, (now() AT TIME ZONE 'UTC')::date, interval '1 day') AS g(t)
  CROSS JOIN LATERAL (SELECT g.t::date AS day) d
  LEFT JOIN daily ON daily.day = d.day
GROUP BY d.day ORDER BY d.day`;

const TOP_BLOCKERS = `${DAILY_DECISIONS}
SELECT code, count(*)::int AS count FROM (
  SELECT DISTINCT daily.commit_sha, daily.day, b->>'code' AS code
  FROM daily CROSS JOIN LATERAL jsonb_array_elements(daily.blockers) b WHERE daily.decision = 'NO_SHIP') c
GROUP BY code ORDER BY count DESC, code LIMIT 10`;

// Only the rules' names and outcomes, read from the page's snapshots by id once the page is cut: the provenance is
// large, so it is never read for the snapshots a page skips. An empty list stays a list (no rule applied).
const RULES_OF_SNAPSHOTS = `
SELECT s.id, CASE WHEN jsonb_typeof(s.provenance->'authorship'->'rules') = 'array' THEN coalesce(
  (SELECT jsonb_agg(jsonb_build_object('name', r.rule->>'name', 'met', (r.rule->>'met')::boolean) ORDER BY r.n)
   FROM jsonb_array_elements(s.provenance->'authorship'->'rules') WITH ORDINALITY AS r(rule, n)), '[]'::jsonb) END AS rules
FROM snapshots s WHERE s.id = ANY($1::uuid[])`;

/** Reads of a repository's release overview: its decided commits, its decisions per day, a commit's uploads. */
export function createReleaseOverviewReads(db: Knex) {
  return {
    /** Each commit with a snapshot, by its newest snapshot; newest evaluation first, keyset-paged on (seen_at, snapshot id). */
    async listCommits(repoRoot: string, page: PageRequest): Promise<Page<ReleaseCommit>> {
      const latest = db('snapshots')
        .distinctOn('commit_sha')
        .select('id', 'commit_sha', 'decision', 'status', 'release_label', 'blockers', 'seen_at as created_at')
        .where({ repo_root: repoRoot })
        .orderBy([{ column: 'commit_sha' }, { column: 'seen_at', order: 'desc' }]);
      const pullRequest = db('github_pull_requests as p')
        .select('p.number')
        .where('p.repo_root', repoRoot)
        .whereRaw('p.head_sha = c.commit_sha')
        .orderBy('p.updated_at', 'desc')
        .limit(1);
      const query = db.from(latest.as('c')).select('c.*', pullRequest.as('pull_request_number'));
      const listed = await keysetPage<CommitRow, Omit<ReleaseCommit, 'rules'>>(
        query,
        page,
        (row) => ({
          commit_sha: row.commit_sha,
          decision: row.decision as Decision,
          blocker_codes: [...new Set(row.blockers.map((b) => b.code))],
          snapshot_id: row.id,
          snapshot_status: row.status as SnapshotStatus,
          release_label: row.release_label,
          evaluated_at: row.created_at.toISOString(),
          pull_request_number: row.pull_request_number,
        }),
        'c',
      );
      if (listed.items.length === 0) return { ...listed, items: [] };
      const ids = listed.items.map((c) => c.snapshot_id);
      const found = await sendSql<{ id: string; rules: ReleaseCommit['rules'] }>(db, RULES_OF_SNAPSHOTS, [ids]);
      const rules = new Map(found.map((r) => [r.id, r.rules]));
      return { ...listed, items: listed.items.map((c) => ({ ...c, rules: rules.get(c.snapshot_id) ?? null })) };
    },

    /** The last `days` UTC days (today included), every day listed, and the most frequent blocker codes of that window. */
    async history(repoRoot: string, days: number): Promise<ReleaseHistory> {
      const [perDay, top] = await Promise.all([
        sendSql<{ day: string; ship: number; no_ship: number }>(db, PER_DAY, [repoRoot, days]),
        sendSql<{ code: BlockerCode; count: number }>(db, TOP_BLOCKERS, [repoRoot, days]),
      ]);
      return { per_day: perDay, top_blockers: top };
    },

    /** A commit's uploaded evidence (not check runs), newest first, with each document's facts when it has one. */
    listEvidence(repoRoot: string, commitSha: string, page: PageRequest): Promise<Page<EvidenceRecord>> {
      const query = db('evidence as e')
        .leftJoin('evidence_documents as d', 'd.digest', 'e.document_digest')
        .select('e.*', 'd.digest as document_digest_found', 'd.format as document_format', 'd.media_type', 'd.size')
        .where({ 'e.repo_root': repoRoot, 'e.commit_sha': commitSha, 'e.source': 'upload' });
      type Row = EvidenceRow & {
        document_digest_found: string | null;
        document_format: string | null;
        media_type: string | null;
        size: number | null;
      };
      return keysetPage<Row, EvidenceRecord>(
        query,
        page,
        (row) =>
          toEvidenceRecord(
            row,
            row.document_digest_found
              ? {
                  digest: row.document_digest_found,
                  format: row.document_format as EvidenceFormat,
                  media_type: row.media_type!,
                  size: Number(row.size),
                }
              : null,
          ),
        'e',
      );
    },
  };
}

export type ReleaseOverviewReads = ReturnType<typeof createReleaseOverviewReads>;
