import type { Knex } from 'knex';
import type { EvidenceFormat } from '../../../core/evidence-content/evidence-format.js';
import type { EvidenceSummary } from '../../../core/evidence-content/evidence-summary.js';
import type { CheckRun, EvidenceContent, EvidenceDocument, UploadedEvidence, WorkflowRun } from '../../../core/release/evidence.js';
import type { CommitStateFacts } from '../../../core/release/release-store.js';
import type { SnapshotHead } from '../../../core/release/snapshot.js';
import type { AuthorshipRecord } from '../../../core/release/authorship.js';
import type { CommitWork } from '../../../core/release/governed-work.js';
import type { MergeGroupPullRequest } from '../../../core/release/merge-group-authorship.js';
import type { GateVersionRow } from '../../tables.js';
import type { OverrideFact } from '../../../core/release/override.js';
import type { BoundWorkflowFacts } from '../../../core/workflows/judge-bound-workflows.js';
import { BOUND_EXECUTIONS, BOUND_WORKFLOW_RECORDS, toBoundExecutionFacts, type BoundExecutionTuple } from './commit-work.js';
import { sendSql } from '../../send-sql.js';
import { toGateVersion } from './release-rows.js';
import { createVersionedCache, type StateVersions } from './versioned-cache.js';
import { deepFreeze, isDeeplyFrozen } from '../../../core/deep-freeze.js';

/** RFC 3339 UTC with milliseconds, truncated like the pg driver's Date: both paths print alike. */
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const HEAD = `id, repo_root, commit_sha, evidence_digest, decision, status, release_label, ${iso('created_at')} AS created_at, ${iso('attested_at')} AS attested_at`;

// The change counts of the commit ($1, $2) and of its repository (migration 014): a state read
// at the same counts is still the state (ARCHITECTURE.md, "Process-local state", the
// decision's cache).
const STATE_VERSION_COLUMNS = `(SELECT version FROM release_commit_versions WHERE repo_root = $1 AND commit_sha = $2) AS commit_version,
  (SELECT version FROM release_repo_versions WHERE repo_root = $1) AS repo_version`;

const STATE_VERSIONS = { name: 'release_state_versions', text: `SELECT ${STATE_VERSION_COLUMNS}` };

// Who made the pull request whose head the commit is (migration 021), or, for a merge group's
// commit, the pull request its queue branch names (migration 027), and the work bound to that pull
// request's other commits: each workflow with its executions' verdicts, each standalone execution
// with its own (which of them governs is core's rule: core/release/governed-work.ts); the commit's
// own work is read with the rest. Migrations 021's and 027's triggers count changes to all of them.
// The open pull requests whose head the commit is, by number (migration 058 counts their changes):
// more than one, and the commit is judged by neither's facts (core/release/pull-requests-at-head.ts).
const AUTHORSHIP_HEAD = `coalesce(
     (SELECT commit_sha FROM pull_request_authorship WHERE repo_root = $1 AND commit_sha = $2),
     (SELECT pull_request_head_sha FROM github_merge_groups WHERE repo_root = $1 AND head_sha = $2))`;
const AUTHORSHIP = `(SELECT row_to_json(a) FROM (SELECT number, status, reason, facts FROM pull_request_authorship
     WHERE repo_root = $1 AND commit_sha = ${AUTHORSHIP_HEAD}) a) AS authorship,
  (SELECT row_to_json(m) FROM (SELECT pull_request_number AS number, pull_request_head_sha AS head_sha FROM github_merge_groups
     WHERE repo_root = $1 AND head_sha = $2) m) AS merge_group,
  (SELECT coalesce(json_agg(g), '[]') FROM pull_request_authorship a CROSS JOIN LATERAL (
     SELECT w.commit_sha AS sha, w.status,
       (SELECT coalesce(json_agg(x.verdict), '[]') FROM executions x WHERE x.workflow_id = w.id) AS verdicts
     FROM workflows w
       WHERE w.repo_root = a.repo_root AND w.commit_sha = ANY(a.commit_shas) AND w.commit_sha <> $2
     UNION ALL
     SELECT e.commit_sha, e.status, json_build_array(e.verdict) FROM executions e
       WHERE e.repo_root = a.repo_root AND e.commit_sha = ANY(a.commit_shas) AND e.commit_sha <> $2 AND e.workflow_id IS NULL) g
   WHERE a.repo_root = $1 AND a.commit_sha = ${AUTHORSHIP_HEAD}) AS pull_request_work,
  (SELECT coalesce(json_agg(p.number ORDER BY p.number), '[]') FROM github_pull_requests p
     WHERE p.repo_root = $1 AND p.head_sha = $2 AND p.state = 'open') AS open_pull_requests`;

// What an upload's document says (migration 026), without its bytes: a decision reads summaries
// only. One column, null for every row without a document (check runs, plain uploads), so those
// cost a few bytes more than before, not one key per field.
const CONTENT = `CASE WHEN format IS NOT NULL THEN json_build_object('id', id, 'format', format, 'summary', summary,
    'summary_digest', summary_digest, 'document', (SELECT row_to_json(d) FROM (
      SELECT digest, format, media_type, size FROM evidence_documents WHERE digest = evidence.document_digest) d)) END AS content`;

// The commit's unrevoked overrides (migration 047, whose trigger counts their changes), expired ones
// too: expiry is judged against the clock when the decision is made, so a cached state never keeps one in force.
const OVERRIDES = `(SELECT coalesce(json_agg(o ORDER BY o.created_at, o.id), '[]') FROM (
     SELECT id, blockers, reason, reason_digest, created_by_login, ${iso('expires_at')} AS expires_at, created_at
     FROM release_overrides WHERE repo_root = $1 AND commit_sha = $2 AND revoked_at IS NULL) o) AS overrides`;

// Everything a decision reads about a commit ($1 repo_root, $2 commit_sha) in ONE round trip:
// the gate, the newest evidence of each name (check runs: of each name per reporting App, migration
// 038, so another App's later check cannot hide a pinned one), the bound executions, the latest snapshot and the
// two latest attested. json, not jsonb: the server only prints these, never queries them.
// ORDER BY names table columns: the bare names would be the to_char outputs, sorted as text
// after reading every row instead of walked in index order.
export const COMMIT_STATE = {
  name: 'release_commit_state',
  text: `
SELECT
  (SELECT row_to_json(g) FROM gate_versions g WHERE g.repo_root = $1 ORDER BY g.version DESC LIMIT 1) AS gate,
  (SELECT coalesce(json_agg(e), '[]') FROM (
     SELECT DISTINCT ON (source, name, app_id, app_slug) source, kind, name, status, conclusion, digest, uri, details_url, external_id, workflow_run, recorder,
       app_id, app_slug, ${iso('produced_at')} AS produced_at, ${CONTENT}
     FROM evidence WHERE repo_root = $1 AND commit_sha = $2
     ORDER BY source, name, app_id, app_slug, evidence.produced_at DESC, evidence.created_at DESC) e) AS evidence,
  ${BOUND_EXECUTIONS} AS executions,
  ${BOUND_WORKFLOW_RECORDS} AS workflows,
  (SELECT row_to_json(s) FROM (SELECT ${HEAD} FROM snapshots WHERE repo_root = $1 AND commit_sha = $2 ORDER BY seen_at DESC LIMIT 1) s) AS latest,
  (SELECT coalesce(json_agg(s), '[]') FROM (SELECT ${HEAD} FROM snapshots
     WHERE repo_root = $1 AND status IN ('attested', 'promoted') ORDER BY snapshots.attested_at DESC LIMIT 2) s) AS attested,
  ${AUTHORSHIP},
  ${OVERRIDES},
  ${STATE_VERSION_COLUMNS}`,
};

interface ContentJson {
  id: string;
  format: EvidenceFormat;
  summary: EvidenceSummary;
  summary_digest: string;
  document: EvidenceDocument | null;
}

type EvidenceJson = CheckRun &
  Omit<UploadedEvidence, 'workflow_run' | 'recorded_by_user' | 'format' | 'summary_digest'> & {
    source: 'check_run' | 'upload';
    workflow_run: WorkflowRun | null;
    recorder: { user_id: string } | null;
    app_id: number | null;
    app_slug: string | null;
    content: ContentJson | null;
  };

/** What the documents of a commit's uploads say, by upload name. */
function contentsOf(uploads: EvidenceJson[]): Record<string, EvidenceContent> {
  const contents: Record<string, EvidenceContent> = {};
  for (const { name, content: c } of uploads) {
    if (c) contents[name] = { evidence_id: c.id, format: c.format, summary: c.summary, document: c.document };
  }
  return contents;
}

interface CommitStateRow extends StateVersions {
  gate: (Omit<GateVersionRow, 'created_at'> & { created_at: string }) | null;
  evidence: EvidenceJson[];
  executions: BoundExecutionTuple[];
  workflows: BoundWorkflowFacts[];
  latest: SnapshotHead | null;
  attested: SnapshotHead[];
  authorship: AuthorshipRecord | null;
  merge_group: MergeGroupPullRequest | null;
  pull_request_work: CommitWork[];
  open_pull_requests: number[];
  overrides: (OverrideFact & { created_at: string })[];
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** A commit's facts as core reads them, from the statement's row. */
function factsOfRow(row: CommitStateRow): CommitStateFacts {
  const {
    gate,
    evidence,
    executions,
    workflows,
    latest,
    attested,
    authorship,
    merge_group,
    pull_request_work,
    open_pull_requests,
    overrides,
  } = row;
  return {
    gate: gate ? toGateVersion({ ...gate, created_at: new Date(gate.created_at) }) : null,
    evidence: {
      checkRuns: evidence
        .filter((e) => e.source === 'check_run')
        .map(({ name, status, conclusion, produced_at, details_url, external_id, app_id, app_slug }) => ({
          name,
          status,
          conclusion,
          produced_at,
          details_url,
          external_id,
          // Absent when unknown, so the snapshots of check runs recorded before migration 038 keep their address.
          ...(app_id !== null || app_slug !== null ? { app: { id: app_id, slug: app_slug } } : {}),
        })),
      uploads: evidence
        .filter((e) => e.source === 'upload')
        .map(({ kind, name, status, digest, uri, produced_at, workflow_run, recorder, content }) => ({
          kind,
          name,
          status: status as UploadedEvidence['status'],
          digest,
          uri,
          produced_at,
          ...(workflow_run ? { workflow_run } : {}),
          // Absent for uploads recorded before migration 039, so their snapshots keep their address.
          ...(recorder ? { recorded_by_user: recorder.user_id } : {}),
          // Absent without a document, so the snapshots of such evidence keep their address.
          ...(content ? { format: content.format, summary_digest: content.summary_digest } : {}),
        })),
      contents: contentsOf(evidence.filter((e) => e.source === 'upload')),
    },
    executions: executions.map(toBoundExecutionFacts),
    workflows,
    latest,
    attested,
    authorship,
    merge_group,
    pull_request_work,
    open_pull_requests,
    overrides: overrides.map(({ id, blockers, reason, reason_digest, created_by_login, expires_at }) => ({
      id,
      blockers,
      reason,
      reason_digest,
      created_by_login,
      expires_at,
    })),
  };
}

/**
 * Each cached row's facts, mapped once and frozen like the row: a commit polled with nothing changed gets the same
 * objects, so core's memo of its judgement finds them the same by identity (core/release/remembered-judgement.ts).
 */
const factsOfCachedRow = new WeakMap<CommitStateRow, CommitStateFacts>();

/**
 * Reads a commit's state as facts in one round trip, or, when this server read it before, only
 * its change counts, reusing the state read at the same counts (ARCHITECTURE.md, "Process-local
 * state", the decision's cache). The cache keeps the `cachedCommits` commits read last
 * (SHIPGATE_DECISION_CACHE_COMMITS; about 5 KB each with ten bound executions). The rules are
 * core's: core/release/read-commit-state.ts.
 */
export function createCommitStateReader(db: Knex, cachedCommits: number) {
  const cache = createVersionedCache<CommitStateRow>(cachedCommits);
  async function stateRow(repoRoot: string, commitSha: string): Promise<CommitStateRow> {
    const key = `${repoRoot}\n${commitSha}`;
    if (cache.has(key)) {
      const [versions] = await sendSql<StateVersions>(db, STATE_VERSIONS, [repoRoot, commitSha]);
      const cached = cache.get(key, versions);
      if (cached) return cached;
    }
    const [row] = await sendSql<CommitStateRow>(db, COMMIT_STATE, [repoRoot, commitSha]);
    // Code-unit order, not the database collation: the digest of these lists must not depend on the server.
    row.evidence.sort(byName);
    cache.set(key, { commit_version: row.commit_version, repo_version: row.repo_version }, row);
    return row;
  }
  return {
    async commitFacts(repoRoot: string, commitSha: string): Promise<CommitStateFacts> {
      const row = await stateRow(repoRoot, commitSha);
      if (!isDeeplyFrozen(row)) return factsOfRow(row);
      let facts = factsOfCachedRow.get(row);
      if (!facts) {
        facts = deepFreeze(factsOfRow(row));
        factsOfCachedRow.set(row, facts);
      }
      return facts;
    },
  };
}
