import { finishGitHubLink, startGitHubSignIn } from '../../core/accounts/complete-github-sign-in.js';
import { removeGitHubLink } from '../../core/accounts/remove-github-link.js';
import { authorizeUrl, NotConfigured, oauthClient, SETS_SIGN_IN_COOKIE } from '../github-oauth-client.js';
import { signInCookie } from '../github-sign-in-cookie.js';
import { defineRoute } from '../route.js';
import { githubAuthorizeUrlSchema, githubCallbackResultSchema, githubExchangeRequestSchema } from '../schemas/github-sign-in-schemas.js';

const tags = ['auth'] as const;

/**
 * Linking a GitHub account to the calling shipgate account, and removing a link (docs/github-app.md,
 * "Sign in with GitHub"; docs/api.md, "Repository access"). The callback in between is the sign-in's.
 */
export const githubLinkRoutes = [
  defineRoute({
    method: 'post',
    path: '/auth/github/link',
    tags,
    auth: 'any',
    summary: 'Start linking GitHub to the calling account',
    description:
      'The authorization URL to send the browser to: like `/auth/github/start` (with its sign-in cookie, so only the browser that ' +
      "made this request can come back), with the link intent bound to the state (the key never enters a URL). GitHub's callback " +
      "then sends the browser to the studio's account page with a one-time `github_link` code (1 minute), and only this caller's " +
      'key finishes the link with `POST /auth/github/link/finish`: a link started by one account never completes for another.',
    responses: {
      200: { description: "GitHub's authorization page for this link.", schema: githubAuthorizeUrlSchema, headers: SETS_SIGN_IN_COOKIE },
    },
    errors: { 404: 'No OAuth client is configured.' },
    async handler({ caller, deps }) {
      const client = await oauthClient(deps);
      if (!client) throw new NotConfigured();
      const started = await startGitHubSignIn(deps.githubSignIn, caller.user.id);
      return {
        body: { authorize_url: authorizeUrl(deps, client, started), expires_at: started.expiresAt.toISOString() },
        headers: { 'Set-Cookie': signInCookie(deps.config.publicUrl).set(started.browserNonce) },
      };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/auth/github/link/finish',
    tags,
    auth: 'any',
    summary: 'Finish linking GitHub to the calling account',
    description:
      "The link's last step: the one-time `github_link` code the callback put in the studio's account page URL (single-use, " +
      '1 minute), sent with the key of the user who started the link (`POST /auth/github/link`). Links that GitHub account (by its ' +
      'numeric id) to the caller, replacing any previous link. A code started by another account is refused (403) and spent: ' +
      "nobody can link their GitHub account to someone else, nor someone else's to theirs.",
    body: githubExchangeRequestSchema,
    responses: { 200: { description: 'Linked.', schema: githubCallbackResultSchema } },
    errors: {
      403: 'The link was started by another account.',
      409: 'The GitHub account is linked to another shipgate user.',
      422: 'The code is unknown, already used or expired.',
    },
    async handler({ body, caller, deps }) {
      const github = await finishGitHubLink(deps.githubSignIn, caller.user.id, body.code);
      deps.logger.info({ event: 'github_linked', user_id: caller.user.id, github_login: github.login }, 'GitHub account linked');
      return { body: { result: 'linked', github_login: github.login, code: null } };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/auth/github',
    tags,
    auth: 'any',
    summary: "Unlink the calling account's GitHub account (ADMIN, unless SHIPGATE_REPO_ACCESS=roles)",
    description:
      'The account stops signing in with GitHub. While GitHub decides repository access (`github`, `github-required`) only an ADMIN ' +
      "may remove a link (others: 403; an ADMIN removes anyone's with `DELETE /users/{user_id}/github`), and the account stays " +
      'checked against the GitHub account last linked: unlinking never widens access (docs/api.md, "Repository access"). ' +
      'Refused for an account without a password (created by a GitHub sign-in): it would have no way to sign in again.',
    responses: { 204: { description: 'Unlinked.' } },
    errors: {
      403: 'Only an ADMIN can remove a GitHub link while GitHub decides repository access.',
      404: 'No GitHub account is linked.',
      409: 'The account has no password: unlinking would lock it out.',
    },
    async handler({ caller, deps }) {
      await removeGitHubLink(
        { accounts: deps.accounts, store: deps.githubSignIn.store },
        await deps.repoAccess.mode(),
        caller,
        caller.user.id,
      );
      deps.logger.info({ event: 'github_unlinked', user_id: caller.user.id }, 'GitHub account unlinked');
      return { status: 204 };
    },
  }),
];
