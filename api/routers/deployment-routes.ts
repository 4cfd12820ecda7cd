import { z } from 'zod';
import type { DeploymentRequest } from '../../core/github/deployment-store.js';
import { defineRoute } from '../route.js';
import { deploymentResponseSchema, deploymentsQuerySchema } from '../schemas/deployment-schemas.js';
import { linkNext, linkNextHeader, pageRequest } from '../schemas/pagination-schemas.js';

/** An answered request as the API shows it (installation ids stay inside). */
function toResponse({ installation_id: _installation, ...answered }: DeploymentRequest) {
  return answered;
}

export const deploymentRoutes = [
  defineRoute({
    method: 'get',
    path: '/releases/deployments',
    tags: ['releases'],
    auth: 'any',
    summary: 'Answered deployment protection requests, newest answer first',
    description:
      "Every deployment shipgate approved or rejected through the GitHub App's custom deployment protection rule, with the decision " +
      'snapshot the answer was based on. Filter by repo_root and/or environment; the next page is announced in the Link header. ' +
      'Requests still waiting for pending required checks are not listed until answered.',
    query: deploymentsQuerySchema,
    repoAccess: { need: 'read', repository: ({ query }) => query.repo_root },
    responses: {
      200: {
        description: 'A page of answered deployments.',
        schema: z.array(deploymentResponseSchema),
        headers: linkNextHeader,
      },
    },
    async handler({ query, caller, ctx, deps }) {
      // Without repo_root, only the repositories the caller can read on GitHub (docs/api.md, "Repository access").
      const readable = query.repo_root
        ? undefined
        : await deps.repoAccess.readableAmong(caller, deps.reads.repositoriesWith.deploymentRequests);
      const page = await deps.deployments.listAnswered(
        { repo_root: query.repo_root, environment: query.environment, repo_roots: readable },
        pageRequest(query),
      );
      linkNext(ctx, page.next);
      return { body: page.items.map(toResponse) };
    },
  }),
];
