import { z } from 'zod';
import { ConflictError, NotFoundError } from '../../core/errors.js';
import { endAgentsOfDeactivatedUser } from '../../core/mcp/end-agents-of-deactivated-user.js';
import { defineRoute } from '../route.js';
import { userIdParamsSchema, userPatchSchema, userResponseSchema } from '../schemas/account-schemas.js';
import { linkNext, linkNextHeader, pageQuerySchema, pageRequest } from '../schemas/pagination-schemas.js';

const tags = ['users'] as const;

export const userRoutes = [
  defineRoute({
    method: 'get',
    path: '/users',
    tags,
    auth: ['ADMIN'],
    summary: 'List users (ADMIN)',
    description: 'Every account, deactivated ones included, newest first; `limit` and `cursor` page through them.',
    query: pageQuerySchema,
    responses: {
      200: {
        description: 'Users, newest first; next page in the Link header.',
        schema: z.array(userResponseSchema),
        headers: linkNextHeader,
      },
    },
    async handler({ query, ctx, deps }) {
      const page = await deps.accounts.listUsers(pageRequest(query));
      linkNext(ctx, page.next);
      return { body: page.items };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/users/{user_id}',
    tags,
    auth: ['ADMIN'],
    summary: "Change a user's role or deactivate them (ADMIN)",
    description:
      'A deactivated user\'s keys answer 403 "Account deactivated.". Deactivating also revokes the agent keys they created (for good: ' +
      'reactivating them does not bring those back) and closes their running agent sessions, recorded as closed by deactivation ' +
      '(docs/mcp-gateway.md).',
    params: userIdParamsSchema,
    body: userPatchSchema,
    responses: { 200: { description: 'The updated user.', schema: userResponseSchema } },
    errors: { 409: 'An ADMIN cannot demote or deactivate their own account.' },
    async handler({ params, body, caller, deps }) {
      if (params.user_id === caller.user.id && (body.active === false || (body.role && body.role !== 'ADMIN'))) {
        throw new ConflictError('An ADMIN cannot demote or deactivate their own account.');
      }
      const user = await deps.accounts.updateUser(params.user_id, body);
      if (!user) throw new NotFoundError('User', params.user_id);
      if (body.active === false) {
        const ended = await endAgentsOfDeactivatedUser(deps, user.id);
        deps.logger.info({ event: 'user.deactivated', user_id: user.id, by: caller.user.id, ...ended }, 'user deactivated');
      }
      return { body: user };
    },
  }),
];
