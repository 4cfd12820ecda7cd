import { z } from 'zod';
import { repoAccessPath, type RepoAccessMode } from '../../core/accounts/repo-access.js';
import { removeGitHubLink } from '../../core/accounts/remove-github-link.js';
import type { User } from '../../core/accounts/user.js';
import { ConflictError, NotFoundError } from '../../core/errors.js';
import type { Deps } from '../deps.js';
import { endAgentsOfDeactivatedUser } from '../../core/mcp/end-agents-of-deactivated-user.js';
import { defineRoute } from '../route.js';
import { userIdParamsSchema, userPatchSchema, userResponseSchema } from '../schemas/account-schemas.js';
import { linkNext, linkNextHeader, pageQuerySchema, pageRequest } from '../schemas/pagination-schemas.js';

const tags = ['users'] as const;

/** The users with how their repository actions are decided now (docs/api.md, "Repository access"). */
async function withRepositoryAccess(deps: Deps, users: User[]) {
  const mode: RepoAccessMode = await deps.repoAccess.mode();
  const githubUserIds = await deps.accounts.githubUserIds(users.map((user) => user.id));
  return users.map((user) => ({
    ...user,
    repository_access: repoAccessPath(mode, { user, githubUserId: githubUserIds.get(user.id) }).kind,
  }));
}

export const userRoutes = [
  defineRoute({
    method: 'get',
    path: '/users',
    tags,
    auth: ['ADMIN'],
    summary: 'List users (ADMIN)',
    description:
      'Every account, deactivated ones included, newest first; `limit` and `cursor` page through them. `repository_access` says how ' +
      "each account's repository actions are decided: `public_only` marks an account without a GitHub link that is not a service account.",
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
      return { body: await withRepositoryAccess(deps, page.items) };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/users/{user_id}',
    tags,
    auth: ['ADMIN'],
    summary: "Change a user's role, make it a service account, or deactivate it (ADMIN)",
    description:
      'A deactivated user\'s keys answer 403 "Account deactivated.". Deactivating also revokes the agent keys they created (for good: ' +
      'reactivating them does not bring those back) and closes their running agent sessions, recorded as closed by deactivation ' +
      '(docs/mcp-gateway.md). `service_account: true` makes an account judged by its role alone on repositories, without a GitHub ' +
      'link (for CI keys; docs/api.md, "Repository access").',
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
      if (body.service_account !== undefined)
        deps.logger.info(
          { event: 'user.service_account', user_id: user.id, service_account: body.service_account, by: caller.user.id },
          body.service_account ? 'made a service account' : 'no longer a service account',
        );
      return { body: (await withRepositoryAccess(deps, [user]))[0] };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/users/{user_id}/github',
    tags,
    auth: ['ADMIN'],
    summary: "Remove a user's GitHub link (ADMIN)",
    description:
      'The user stops signing in with GitHub; their repository access stays checked against the GitHub account last linked ' +
      '(docs/api.md, "Repository access"): to give an account role-only access, make it a service account. Refused for an ' +
      'account without a password (it would be locked out).',
    params: userIdParamsSchema,
    responses: { 204: { description: 'Unlinked.' } },
    errors: { 404: 'No such user, or no GitHub account is linked.', 409: 'The account has no password: unlinking would lock it out.' },
    async handler({ params, caller, deps }) {
      await removeGitHubLink(
        { accounts: deps.accounts, store: deps.githubSignIn.store },
        await deps.repoAccess.mode(),
        caller,
        params.user_id,
      );
      deps.logger.info({ event: 'github_unlinked', user_id: params.user_id, by: caller.user.id }, 'GitHub account unlinked by an ADMIN');
      return { status: 204 };
    },
  }),
];
