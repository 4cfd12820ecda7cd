import { z } from 'zod';
import { BLOCKER_CODES } from '../../core/release/blocker.js';
import { SNAPSHOT_STATUSES } from '../../core/release/snapshot.js';
import { pageQuerySchema } from './pagination-schemas.js';
import { evidenceResponseSchema } from './release-evidence-schemas.js';
import { commitShaSchema, repoRootSchema, timestamp } from './release-schemas.js';

// A repository's release overview: the commits shipgate has decided, its decisions per day, a
// commit's uploaded evidence (docs/api.md, "Release overview").

export const commitsQuerySchema = pageQuerySchema.extend({ repo_root: repoRootSchema });

export const releaseCommitSchema = z
  .object({
    commit_sha: z.string(),
    decision: z.enum(['SHIP', 'NO_SHIP']).meta({ description: "The commit's latest decision (of its newest snapshot)." }),
    blocker_codes: z.array(z.enum(BLOCKER_CODES)).meta({ description: 'The codes of that decision’s blockers; empty for SHIP.' }),
    snapshot_id: z
      .uuid()
      .meta({ description: "The commit's newest snapshot (GET /releases/decision answers it while evidence is unchanged)." }),
    snapshot_status: z.enum(SNAPSHOT_STATUSES),
    release_label: z.string().nullable(),
    evaluated_at: timestamp.meta({ description: 'When that snapshot was last evaluated (RFC 3339 UTC).' }),
    pull_request_number: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'The pull request whose head is this commit, when the GitHub App has seen one (the most recently updated).' }),
    rules: z
      .array(z.object({ name: z.string(), met: z.boolean() }).meta({ id: 'ReleaseCommitRule' }))
      .nullable()
      .meta({
        description:
          'The rules of the gate that applied to the pull request whose head this is, met or not, as its newest snapshot judged them (docs/release-gate.md, "Rules"); empty when none applied; null when that decision judged no rules (no pull request).',
      }),
  })
  .meta({ id: 'ReleaseCommit' });

export const releaseCommitListSchema = z
  .object({ repo_root: z.string(), commits: z.array(releaseCommitSchema) })
  .meta({ id: 'ReleaseCommitList', description: 'Newest evaluation first; the next page is announced in the Link header.' });

export const historyQuerySchema = z.object({
  repo_root: repoRootSchema,
  days: z.coerce.number().int().min(1).max(90).default(30).meta({ description: 'The window in UTC days, ending today: 1-90.' }),
});

export const historyDaySchema = z
  .object({
    day: z.string().meta({ description: 'A UTC day, YYYY-MM-DD.', example: '2026-11-25' }),
    ship: z.number().int(),
    no_ship: z.number().int(),
  })
  .meta({ id: 'ReleaseHistoryDay' });

export const releaseHistorySchema = z
  .object({
    repo_root: z.string(),
    days: z.number().int(),
    per_day: z.array(historyDaySchema).meta({
      description:
        'Every UTC day of the window, oldest first (zeros included). Each commit evaluated that day counts once, with the decision of its ' +
        'last snapshot seen that day.',
    }),
    top_blockers: z.array(z.object({ code: z.enum(BLOCKER_CODES), count: z.number().int() }).meta({ id: 'ReleaseHistoryBlocker' })).meta({
      description:
        'At most 10 blocker codes, most frequent first (ties by code): how many of the counted NO_SHIP decisions of the window carry each.',
    }),
  })
  .meta({ id: 'ReleaseHistory' });

export const evidenceListQuerySchema = pageQuerySchema.extend({ repo_root: repoRootSchema, commit_sha: commitShaSchema });

export const evidenceListSchema = z
  .object({ evidence: z.array(evidenceResponseSchema) })
  .meta({ id: 'EvidenceList', description: 'Uploads (not check runs), newest first; the next page is announced in the Link header.' });
