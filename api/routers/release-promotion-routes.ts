import { NotFoundError } from '../../core/errors.js';
import { requireStoredItem } from '../../core/accounts/require-stored-item.js';
import { promoteSnapshot } from '../../core/release/promote-snapshot.js';
import { defineRoute } from '../route.js';
import { withDisplayNames } from '../with-display-names.js';
import { linkNext, linkNextHeader, pageRequest } from '../schemas/pagination-schemas.js';
import {
  promotionListSchema,
  promotionRequestSchema,
  promotionResponseSchema,
  promotionsQuerySchema,
} from '../schemas/release-promotion-schemas.js';

const tags = ['releases'] as const;

export const releasePromotionRoutes = [
  defineRoute({
    method: 'post',
    path: '/releases/promote',
    tags,
    auth: ['ADMIN', 'APPROVER'],
    summary: 'Promote a snapshot (ADMIN, APPROVER)',
    description:
      "Transitions: candidate -> attested (only a SHIP snapshot that is still the commit's latest, evaluated now), attested -> promoted, " +
      'candidate -> rejected, attested or promoted -> revoked; anything else 409 with the reason. Repeating the same request answers 200 with the ' +
      "recorded promotion. With the gate's separation_of_duties, an approver who owns a workflow in the snapshot's evidence gets 403 " +
      '(for attested and promoted). Each promotion carries a DSSE-signed SLSA Verification Summary (PASSED, or FAILED for rejected/revoked) ' +
      'whose subject is {name: repo_root, digest: {gitCommit: sha}}; verify it with GET /compliance/keys.',
    body: promotionRequestSchema,
    responses: {
      201: { description: 'Recorded.', schema: promotionResponseSchema },
      200: { description: 'The same request was already recorded; this is that record.', schema: promotionResponseSchema },
    },
    errors: { 404: 'Unknown snapshot.', 409: 'Not a valid transition, a NO_SHIP snapshot, or a stale snapshot; detail says why.' },
    async handler({ body, caller, deps }) {
      // Every transition acts on the snapshot's repository: maintain or admin on GitHub (docs/api.md, "Repository access").
      const snapshot = await deps.release.store.getSnapshot(body.snapshot_id);
      if (snapshot)
        await requireStoredItem(deps.repoAccess, caller, snapshot.repo_root, 'maintain', new NotFoundError('Snapshot', body.snapshot_id));
      const { promotion, created } = await promoteSnapshot(deps.release, body, caller);
      const [named] = await withDisplayNames(deps.accounts, [promotion], 'promoted_by', 'promoted_by_name');
      return { status: created ? 201 : 200, body: named };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/releases/promotions',
    tags,
    auth: 'any',
    summary: 'Promotion history, newest first',
    description: 'Filter by repo_root and/or commit_sha. The next page is announced in the Link header.',
    query: promotionsQuerySchema,
    repoAccess: { need: 'read', repository: ({ query }) => query.repo_root },
    responses: { 200: { description: 'Promotions.', schema: promotionListSchema, headers: linkNextHeader } },
    async handler({ query, caller, ctx, deps }) {
      // Without repo_root, only the repositories the caller can read on GitHub (docs/api.md, "Repository access").
      const readable = query.repo_root ? undefined : await deps.repoAccess.readableAmong(caller, deps.reads.repositoriesWith.promotions);
      const page = await deps.release.store.listPromotions(
        { repo_root: query.repo_root, commit_sha: query.commit_sha, repo_roots: readable },
        pageRequest(query),
      );
      linkNext(ctx, page.next);
      return { body: { promotions: await withDisplayNames(deps.accounts, page.items, 'promoted_by', 'promoted_by_name') } };
    },
  }),
];
