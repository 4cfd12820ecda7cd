import { NotFoundError } from '../../core/errors.js';
import { requireStoredItem } from '../../core/accounts/require-stored-item.js';
import type { Counter, Registry } from 'prom-client';
import { createOverride } from '../../core/release/create-override.js';
import { overrideState, type Override } from '../../core/release/override.js';
import { revokeOverride } from '../../core/release/revoke-override.js';
import type { Deps } from '../deps.js';
import { defineRoute } from '../route.js';
import { withDisplayNames } from '../with-display-names.js';
import { linkNext, linkNextHeader, pageRequest } from '../schemas/pagination-schemas.js';
import {
  overrideListSchema,
  overrideParamsSchema,
  overrideRequestSchema,
  overrideResponseSchema,
  overridesQuerySchema,
} from '../schemas/release-override-schemas.js';

const tags = ['releases'] as const;

/** The counter server/create-metrics.ts registers; absent from a registry built without it. */
function countOverride(metrics: Registry, action: 'created' | 'revoked'): void {
  (metrics.getSingleMetric('shipgate_release_overrides_total') as Counter | undefined)?.inc({ action });
}

/** The audit line of an override or a revocation: who, what, until when; the reason only by its digest. */
function audit(deps: Deps, message: string, o: Override, by: string): void {
  deps.logger.info(
    {
      override_id: o.id,
      repo_root: o.repo_root,
      commit_sha: o.commit_sha,
      blockers: o.blockers.map((b) => `${b.code}:${b.component}`),
      reason_digest: o.reason_digest,
      expires_at: o.expires_at,
      by,
    },
    message,
  );
}

async function answered(deps: Deps, overrides: Override[]) {
  const now = new Date();
  const named = await withDisplayNames(deps.accounts, overrides, 'created_by', 'created_by_name');
  return named.map((o) => ({ ...o, state: overrideState(o, now) }));
}

export const releaseOverrideRoutes = [
  defineRoute({
    method: 'post',
    path: '/releases/overrides',
    tags,
    auth: ['ADMIN', 'APPROVER'],
    summary: "Override a commit's blockers (ADMIN, APPROVER with maintain)",
    description:
      'Lifts exactly the named blockers (by component or code) the commit has now, on that commit only, until `expires_in_seconds` ' +
      'pass or the override is revoked; the decision lists them under `overridden` and is SHIP when no other blocker stands ' +
      '(docs/release-gate.md, "Overrides"). Needs maintain (or admin) on the repository on GitHub, or the ADMIN or APPROVER role ' +
      'under SHIPGATE_REPO_ACCESS=roles. 403 when the caller authored, committed, co-authored or (an agent’s change) was assigned ' +
      'the change, owns the agent session that produced it, has no GitHub link, or independence cannot be judged; 403 when a named ' +
      'blocker is never overridable (`certificate_invalid`, a rule with `overridable: false`); 422 naming a blocker the commit does not have now.',
    body: overrideRequestSchema,
    repoAccess: { need: 'maintain', repository: ({ body }) => body.repo_root },
    responses: { 201: { description: 'Recorded.', schema: overrideResponseSchema } },
    errors: { 403: 'Not independent of the change, or a blocker that may not be overridden; detail says why.' },
    async handler({ body, caller, deps }) {
      const override = await createOverride(deps.release, caller, body);
      countOverride(deps.metrics, 'created');
      audit(deps, 'release override recorded', override, override.created_by_login);
      const [answer] = await answered(deps, [override]);
      return { status: 201, body: answer };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/releases/overrides/{override_id}',
    tags,
    auth: ['ADMIN', 'APPROVER'],
    summary: 'Revoke an override (the overrider, or a maintainer of the repository)',
    description:
      'Ends the override now: the commit’s decision no longer lifts its blockers. The override stays listed, with who revoked it and ' +
      'when. Revoking a revoked override answers it unchanged.',
    params: overrideParamsSchema,
    responses: { 200: { description: 'The override, revoked.', schema: overrideResponseSchema } },
    errors: { 404: 'Unknown override, or one of a repository the caller cannot read.' },
    async handler({ params, caller, deps }) {
      const before = await deps.release.overrides.getOverride(params.override_id);
      // Even the overrider must still read the repository: its existence is not revealed otherwise.
      if (before)
        await requireStoredItem(deps.repoAccess, caller, before.repo_root, 'read', new NotFoundError('Override', params.override_id));
      const override = await revokeOverride(deps.release.overrides, caller, params.override_id, (repo) =>
        deps.repoAccess.require(caller, repo, 'maintain'),
      );
      if (before?.revoked_at === null) {
        countOverride(deps.metrics, 'revoked');
        audit(deps, 'release override revoked', override, caller.github?.login ?? caller.user.id);
      }
      const [answer] = await answered(deps, [override]);
      return { body: answer };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/releases/overrides',
    tags,
    auth: 'any',
    summary: "A repository's overrides, newest first",
    description: 'Active, expired and revoked, each with its `state` judged now. The next page is announced in the Link header.',
    query: overridesQuerySchema,
    repoAccess: { need: 'read', repository: ({ query }) => query.repo_root },
    responses: { 200: { description: 'Overrides.', schema: overrideListSchema, headers: linkNextHeader } },
    async handler({ query, ctx, deps }) {
      const page = await deps.release.overrides.listOverrides(query.repo_root, pageRequest(query));
      linkNext(ctx, page.next);
      return { body: { overrides: await answered(deps, page.items) } };
    },
  }),
];
