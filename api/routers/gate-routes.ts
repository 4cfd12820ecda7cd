import { NotFoundError } from '../../core/errors.js';
import { gateSchema } from '../../core/release/gate.js';
import { gateInForce } from '../../core/release/gate-in-force.js';
import { setGate } from '../../core/release/set-gate.js';
import { simulateGate } from '../../core/release/simulate-gate.js';
import type { Deps } from '../deps.js';
import { defineRoute } from '../route.js';
import { withDisplayNames } from '../with-display-names.js';
import {
  gateParamsSchema,
  gateQuerySchema,
  gateVersionListSchema,
  gateVersionSchema,
  gateVersionsQuerySchema,
} from '../schemas/release-gate-schemas.js';
import { gateSimulationRequestSchema, gateSimulationSchema } from '../schemas/release-gate-simulation-schemas.js';

const tags = ['releases'] as const;

/** Each version with its author's display name (docs/api.md, "People by name"). */
const named = <T extends { created_by: string | null }>(deps: Pick<Deps, 'accounts'>, versions: T[]) =>
  withDisplayNames(deps.accounts, versions, 'created_by', 'created_by_name');

export const gateRoutes = [
  defineRoute({
    method: 'get',
    path: '/releases/gates/{owner}/{repo}',
    tags,
    auth: 'any',
    summary: "A repository's release gate",
    description: 'The newest version, or `?version=N`. A repository without a gate answers the built-in default as version 0.',
    params: gateParamsSchema,
    query: gateQuerySchema,
    repoAccess: { need: 'read', repository: ({ params }) => `${params.owner}/${params.repo}` },
    responses: { 200: { description: 'The gate version.', schema: gateVersionSchema } },
    async handler({ params, query, deps }) {
      const repoRoot = `${params.owner}/${params.repo}`;
      if (query.version !== undefined) {
        const version = await deps.release.store.gateVersion(repoRoot, query.version);
        if (!version) throw new NotFoundError('Gate version', String(query.version));
        return { body: (await named(deps, [version]))[0] };
      }
      return { body: (await named(deps, [gateInForce(repoRoot, await deps.release.store.latestGate(repoRoot))]))[0] };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/releases/gates/{owner}/{repo}/versions',
    tags,
    auth: 'any',
    summary: "A repository's recorded gate versions",
    description:
      'Every recorded version, newest first, keyset-paged by version number (`before`, `next_before`). A repository without a gate answers an empty list (its gate is the built-in default, version 0).',
    params: gateParamsSchema,
    query: gateVersionsQuerySchema,
    repoAccess: { need: 'read', repository: ({ params }) => `${params.owner}/${params.repo}` },
    responses: { 200: { description: 'A page of versions.', schema: gateVersionListSchema } },
    async handler({ params, query, deps }) {
      const versions = await deps.release.store.gateVersions(`${params.owner}/${params.repo}`, query.before, query.limit + 1);
      const page = versions.slice(0, query.limit);
      return {
        body: { versions: await named(deps, page), next_before: versions.length > query.limit ? page[page.length - 1].version : null },
      };
    },
  }),
  defineRoute({
    method: 'put',
    path: '/releases/gates/{owner}/{repo}',
    tags,
    auth: ['ADMIN', 'POLICY_AUTHOR'],
    summary: "Set a repository's release gate (ADMIN, POLICY_AUTHOR)",
    description:
      'Replaces the gate; omitted fields take their defaults. Every change is kept as a new version with its digest; ' +
      'a body equal to the current gate records nothing and answers the current version. A `.github/shipgate.yml` on the default branch, read by the App, sets it too.',
    params: gateParamsSchema,
    body: gateSchema,
    repoAccess: { need: 'maintain', repository: ({ params }) => `${params.owner}/${params.repo}` },
    responses: {
      200: { description: 'The current version (unchanged).', schema: gateVersionSchema },
      201: { description: 'A new version was recorded.', schema: gateVersionSchema },
    },
    async handler({ params, body, caller, deps }) {
      const { version, created } = await setGate(deps.release.store, `${params.owner}/${params.repo}`, body, 'api', caller.user.id);
      return { status: created ? 201 : 200, body: (await named(deps, [version]))[0] };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/releases/gates/{owner}/{repo}/simulate',
    tags,
    auth: 'any',
    summary: 'What a draft gate would decide for the recent commits, before it is saved',
    description:
      "Judges the draft gate (validated exactly as PUT validates it, with the same 422) against the stored facts of the repository's last `limit` commits and pull request heads, " +
      'newest first by when shipgate first saw them, beside what the gate in force decides for each now, and lists each commit whose decision or blockers would change, with the totals. ' +
      'Writes nothing: no gate version, no snapshot. Facts never read (a pull request\'s files) are not asked of GitHub: the draft\'s decision fails closed on them and `unknown_facts` says which (docs/release-gate.md, "Simulating a gate").',
    params: gateParamsSchema,
    body: gateSimulationRequestSchema,
    bodyFieldReportedAsBody: 'gate',
    repoAccess: { need: 'read', repository: ({ params }) => `${params.owner}/${params.repo}` },
    responses: { 200: { description: 'The commits the draft would judge otherwise, and the totals.', schema: gateSimulationSchema } },
    async handler({ params, body, deps }) {
      return { body: await simulateGate(deps.release, `${params.owner}/${params.repo}`, body.gate, body.limit) };
    },
  }),
];
