import { evidenceRecordBody } from '../evidence-document-http.js';
import { defineRoute } from '../route.js';
import { linkNext, linkNextHeader, pageRequest } from '../schemas/pagination-schemas.js';
import {
  commitsQuerySchema,
  evidenceListQuerySchema,
  evidenceListSchema,
  historyQuerySchema,
  releaseCommitListSchema,
  releaseHistorySchema,
} from '../schemas/release-overview-schemas.js';

const tags = ['releases'] as const;

// Whoever may read a decision (any role) may read these: they show what decisions and their evidence already show.
export const releaseOverviewRoutes = [
  defineRoute({
    method: 'get',
    path: '/releases/commits',
    tags,
    auth: 'any',
    summary: "A repository's decided commits, newest first",
    description:
      'Every commit of the repository that has a snapshot (a decision was asked for it), by its newest snapshot: the latest decision and ' +
      "its blocker codes, the snapshot's id and status, when it was last evaluated, and the number of the pull request whose head it is " +
      'when the GitHub App has seen one. Newest evaluation first; a commit evaluated again moves to the top. The next page is announced in the Link header.',
    query: commitsQuerySchema,
    repoAccess: { need: 'read', repository: ({ query }) => query.repo_root },
    responses: { 200: { description: 'Commits.', schema: releaseCommitListSchema, headers: linkNextHeader } },
    async handler({ query, ctx, deps }) {
      const page = await deps.reads.releaseOverview.listCommits(query.repo_root, pageRequest(query));
      linkNext(ctx, page.next);
      return { body: { repo_root: query.repo_root, commits: page.items } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/releases/history',
    tags,
    auth: 'any',
    summary: "A repository's decisions per day and most frequent blockers",
    description:
      'For each UTC day of the last `days` (today included, oldest first, days without decisions as zeros): how many commits were SHIP and ' +
      'how many NO_SHIP, each commit counted once a day with the decision of its snapshot last evaluated that day. `top_blockers` counts, ' +
      'over those NO_SHIP decisions, how many carry each blocker code.',
    query: historyQuerySchema,
    repoAccess: { need: 'read', repository: ({ query }) => query.repo_root },
    responses: { 200: { description: 'The history.', schema: releaseHistorySchema } },
    async handler({ query, deps }) {
      const history = await deps.reads.releaseOverview.history(query.repo_root, query.days);
      return { body: { repo_root: query.repo_root, days: query.days, ...history } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/releases/evidence',
    tags,
    auth: 'any',
    summary: "A commit's uploaded evidence, newest first",
    description:
      'Every evidence record uploaded for the commit (POST /releases/evidence), older uploads of a name included; check runs are not listed ' +
      "(the decision's provenance shows them). The decision reads the newest upload of each name by produced_at. The next page is announced in the Link header.",
    query: evidenceListQuerySchema,
    repoAccess: { need: 'read', repository: ({ query }) => query.repo_root },
    responses: { 200: { description: 'Evidence records.', schema: evidenceListSchema, headers: linkNextHeader } },
    async handler({ query, ctx, deps }) {
      const page = await deps.reads.releaseOverview.listEvidence(query.repo_root, query.commit_sha, pageRequest(query));
      linkNext(ctx, page.next);
      return { body: { evidence: page.items.map(evidenceRecordBody) } };
    },
  }),
];
