import type Koa from 'koa';
import { z } from 'zod';
import {
  abandonGitHubSignIn,
  completeGitHubSignIn,
  exchangeSignInCode,
  finishGitHubLink,
  startGitHubSignIn,
} from '../../core/accounts/complete-github-sign-in.js';
import { removeGitHubLink } from '../../core/accounts/remove-github-link.js';
import { GitHubSignInRefused } from '../../core/accounts/github-org-admission.js';
import type { OAuthClient } from '../../core/accounts/github-sign-in.js';
import { ConflictError, ForbiddenError, NotFoundError, ShipgateError, UnavailableError, ValidationError } from '../../core/errors.js';
import { githubWebUrl, OAUTH_CALLBACK_PATH } from '../../core/github/app-manifest.js';
import type { Deps } from '../deps.js';
import { signInCookie } from '../github-sign-in-cookie.js';
import { limit } from '../middleware/authenticate.js';
import { defineRoute } from '../route.js';
import { userWithKey } from '../user-with-key.js';
import { loginResponseSchema } from '../schemas/account-schemas.js';
import {
  githubAuthorizeUrlSchema,
  githubCallbackQuerySchema,
  githubCallbackResultSchema,
  githubExchangeRequestSchema,
  githubSignInStatusSchema,
} from '../schemas/github-sign-in-schemas.js';

const tags = ['auth'] as const;
const NOT_CONFIGURED =
  "Sign in with GitHub is not configured: it needs the GitHub App's OAuth client (GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET with the App, or an App registered from the studio).";

/** The App's OAuth client in force, with this shipgate's callback; null when there is none. */
async function oauthClient(deps: Deps): Promise<OAuthClient | null> {
  const app = await deps.appCredentials.current();
  if (!app?.clientId || !app.clientSecret) return null;
  return { clientId: app.clientId, clientSecret: app.clientSecret, redirectUri: `${deps.config.publicUrl}${OAUTH_CALLBACK_PATH}` };
}

function authorizeUrl(deps: Deps, client: OAuthClient, started: { state: string; codeChallenge: string }): string {
  const url = new URL(`${githubWebUrl(deps.config.github)}/login/oauth/authorize`);
  url.search = new URLSearchParams({
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    state: started.state,
    code_challenge: started.codeChallenge,
    code_challenge_method: 'S256',
    allow_signup: 'false',
  }).toString();
  return url.href;
}

const wantsHtml = (ctx: Koa.Context) => (ctx.get('Accept') ?? '').includes('text/html');
/** A client that asks for JSON (and not for a page): it gets the URL to open instead of a redirect. */
const wantsJson = (ctx: Koa.Context) => ctx.accepts('html', 'json') === 'json';

/** The studio page a browser lands on: `#/sign-in` (or `#/account` after a link) with a short result in its query. */
const studio = (deps: Deps, page: 'sign-in' | 'account', query: Record<string, string>) =>
  `${deps.config.publicUrl}/studio#/${page}?${new URLSearchParams(query)}`;

/** The short reason the studio shows a message for (docs/api.md, "Sign in with GitHub"). */
function reasonOf(error: ShipgateError): string {
  if (error instanceof GitHubSignInRefused) return error.reason;
  if (error instanceof ValidationError) return error.issues[0]?.loc.at(-1) === 'code' ? 'code' : 'state';
  if (error instanceof ConflictError) return 'linked_elsewhere';
  if (error instanceof UnavailableError) return 'unavailable';
  return 'refused';
}

const redirect = (location: string) => ({
  status: 303,
  headers: { Location: location, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' },
});
const location = { Location: { description: 'Where the browser goes next.', schema: z.string().meta({ format: 'uri' }) } };
const setsCookie = {
  'Set-Cookie': {
    description:
      'The sign-in cookie (`__Host-shipgate_github_sign_in`; `shipgate_github_sign_in` under a plain-http SHIPGATE_PUBLIC_URL): a nonce binding the state to this browser, HttpOnly, SameSite=Lax, 10 minutes.',
    schema: z.string(),
  },
};
const clearsCookie = {
  'Set-Cookie': { description: 'Removes the sign-in cookie: it serves one callback.', schema: z.string().optional() },
};

/** "Sign in with GitHub" (docs/github-app.md): the App's OAuth client, GitHub's web flow with PKCE. */
export const githubSignInRoutes = [
  defineRoute({
    method: 'get',
    path: '/auth/github',
    tags,
    auth: 'public',
    summary: 'Whether "Sign in with GitHub" is available (no key)',
    description: "Whether the App's OAuth client is configured, and which organisations' members may sign in. Never returns a secret.",
    responses: { 200: { description: 'The sign-in options.', schema: githubSignInStatusSchema } },
    async handler({ deps }) {
      return { body: { enabled: (await oauthClient(deps)) !== null, organizations: [...deps.config.github.allowedOrgs] } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/auth/github/start',
    tags,
    auth: 'public',
    summary: 'Start "Sign in with GitHub" (no key; a browser navigation)',
    description:
      "Answers 302 (or, to `Accept: application/json`, 200 with the URL) to GitHub's authorization page (`<GitHub>/login/oauth/authorize`) with the App's client id, the callback " +
      '`/api/v1/auth/github/callback` under SHIPGATE_PUBLIC_URL, a single-use `state` (10 minutes; only its SHA-256 is stored) ' +
      'and a PKCE S256 `code_challenge` (the verifier stays on the server with the state), and sets the sign-in cookie: a random ' +
      'nonce, whose SHA-256 is stored with the state, that the callback requires, so only this browser can finish. To link GitHub to the signed-in ' +
      'account instead, use `POST /auth/github/link`. Without an OAuth client: 404 `{detail}`, or for a browser a 303 to the ' +
      "studio's sign-in page with `github_error=not_configured`.",
    responses: {
      200: {
        description: 'For a client asking for JSON (`Accept: application/json`): the URL to open.',
        schema: githubAuthorizeUrlSchema,
        headers: setsCookie,
      },
      302: { description: "On to GitHub's authorization page.", headers: { ...location, ...setsCookie } },
    },
    errors: { 404: 'No OAuth client is configured.', 429: 'Too many requests from this address; see Retry-After.' },
    async handler({ ctx, deps }) {
      await limit(deps, `ip:${ctx.ip}:github-sign-in`);
      const client = await oauthClient(deps);
      if (!client) {
        if (wantsHtml(ctx)) return redirect(studio(deps, 'sign-in', { github_error: 'not_configured' }));
        throw new NotConfigured();
      }
      const started = await startGitHubSignIn(deps.githubSignIn, null);
      const url = authorizeUrl(deps, client, started);
      const cookie = { 'Set-Cookie': signInCookie(deps.config.publicUrl).set(started.browserNonce) };
      if (wantsJson(ctx)) return { body: { authorize_url: url, expires_at: started.expiresAt.toISOString() }, headers: cookie };
      const redirected = redirect(url);
      return { ...redirected, status: 302, headers: { ...redirected.headers, ...cookie } };
    },
  }),
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
      200: { description: "GitHub's authorization page for this link.", schema: githubAuthorizeUrlSchema, headers: setsCookie },
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
    method: 'get',
    path: '/auth/github/callback',
    tags,
    auth: 'public',
    summary: 'Where GitHub sends the browser back (no key)',
    description:
      'Takes the single-use `state` (unknown, used or expired: refused), requires the sign-in cookie of the browser that started it ' +
      '(missing or another nonce: refused, `browser`; the cookie is cleared either way), exchanges `code` with the PKCE verifier for the ' +
      "user's GitHub token, reads `GET /user` with it and drops it (never stored), checks SHIPGATE_GITHUB_ALLOWED_ORGS through " +
      "the App's installations, then links by GitHub's numeric user id (never by e-mail): a linked account signs in (its " +
      'login refreshed), an unknown one becomes a new user with SHIPGATE_DEFAULT_ROLE (the first user ever: ADMIN; with ' +
      'SHIPGATE_REGISTRATION=closed: refused). Answers 303 to the studio with a one-time `github_code` (1 minute) that the ' +
      'studio exchanges with `POST /auth/github/exchange` for its key: no key is ever in a URL (a caller that does not ask for ' +
      'text/html gets the code as JSON instead). A link is not made here: the 303 goes to the account page with a one-time ' +
      '`github_link` code that the key of the user who started the link trades with `POST /auth/github/link/finish`. A refusal is `{detail}`, or ' +
      'for a browser a 303 to the studio with `github_error=` (denied, state, browser, code, org, org_unverifiable, closed, deactivated, linked_elsewhere, not_configured, unavailable).',
    query: githubCallbackQuerySchema,
    responses: {
      200: {
        description: 'Done, for a caller that does not ask for text/html: the one-time code of the sign-in, or of the pending link.',
        schema: githubCallbackResultSchema,
        headers: clearsCookie,
      },
      303: {
        description: 'On to the studio: signed in or link pending (a one-time code), or refused.',
        headers: { ...location, ...clearsCookie },
      },
    },
    errors: {
      403: 'The user denied access on GitHub, the browser lacks the sign-in cookie of the state, is not a member of an allowed organisation, registration is closed, or the account is deactivated.',
      404: 'No OAuth client is configured.',
      409: 'The GitHub account is linked to another shipgate user.',
      422: 'The state is unknown, used or expired, or GitHub does not know the code.',
      429: 'Too many requests from this address; see Retry-After.',
      503: 'GitHub could not be reached or refused the exchange.',
    },
    async handler({ query, ctx, deps }) {
      let page: 'sign-in' | 'account' = 'sign-in';
      const cookie = signInCookie(deps.config.publicUrl);
      // The cookie serves one callback, whatever its outcome (also on a refusal answered by the error middleware).
      ctx.set('Set-Cookie', cookie.clear());
      try {
        await limit(deps, `ip:${ctx.ip}:github-sign-in`);
        const client = await oauthClient(deps);
        if (!client) throw new NotConfigured();
        if (query.error) {
          if ((await abandonGitHubSignIn(deps.githubSignIn, query.state)).link) page = 'account';
          throw new GitHubSignInDenied(query.error);
        }
        if (!query.code || !query.state) {
          throw ValidationError.single(
            ['query', query.state ? 'code' : 'state'],
            'GitHub sends both `code` and `state`: start the sign-in again.',
          );
        }
        const done = await completeGitHubSignIn(
          deps.githubSignIn,
          { ...deps.config, allowedOrgs: deps.config.github.allowedOrgs },
          client,
          {
            code: query.code,
            state: query.state,
            browserNonce: cookie.read(ctx),
            onLink: () => (page = 'account'),
          },
        );
        if (done.kind === 'link_pending') {
          deps.logger.info(
            { event: 'github_link_pending', user_id: done.userId, github_login: done.login },
            'GitHub account seen on GitHub; the link waits for its user to finish it',
          );
          if (!wantsHtml(ctx)) return { body: { result: 'link_pending', github_login: done.login, code: done.code } };
          return redirect(studio(deps, 'account', { github_link: done.code }));
        }
        deps.logger.info(
          { event: 'github_sign_in', user_id: done.user.id, github_login: done.login, created: done.created },
          done.created ? 'New user signed in with GitHub' : 'Signed in with GitHub',
        );
        if (!wantsHtml(ctx)) return { body: { result: 'signed_in', github_login: done.login, code: done.code } };
        return redirect(studio(deps, 'sign-in', { github_code: done.code }));
      } catch (error) {
        if (!(error instanceof ShipgateError) || !wantsHtml(ctx)) throw error;
        const reason = error instanceof GitHubSignInDenied ? 'denied' : error instanceof NotConfigured ? 'not_configured' : reasonOf(error);
        deps.logger.info({ event: 'github_sign_in_refused', reason }, error.message);
        return redirect(studio(deps, page, { github_error: reason }));
      }
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
    method: 'post',
    path: '/auth/github/exchange',
    tags,
    auth: 'public',
    summary: 'Trade the one-time sign-in code for a new key (no key)',
    description:
      'The studio\'s last step of "Sign in with GitHub": the `github_code` the callback put in the studio\'s URL, valid once for ' +
      "1 minute, for a NEW key (label `github`) of the signed-in user; the user's other keys stay valid.",
    body: githubExchangeRequestSchema,
    responses: { 200: { description: 'A new key.', schema: loginResponseSchema } },
    errors: {
      403: 'Account deactivated.',
      422: 'The code is unknown, already used or expired.',
      429: 'Too many requests from this address; see Retry-After.',
    },
    async handler({ body, ctx, deps }) {
      await limit(deps, `ip:${ctx.ip}:github-sign-in`);
      return { body: userWithKey(await exchangeSignInCode(deps.githubSignIn, deps.accounts, body.code)) };
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

/** No OAuth client: 404 with what to configure. */
class NotConfigured extends NotFoundError {
  constructor() {
    super('Sign in with GitHub');
    this.message = NOT_CONFIGURED;
  }
}

/** The user pressed Cancel on GitHub (`error=access_denied`), or GitHub refused the request. */
class GitHubSignInDenied extends ForbiddenError {
  constructor(error: string) {
    super(
      error === 'access_denied'
        ? 'You cancelled the authorization on GitHub: nothing was signed in or linked.'
        : `GitHub refused the authorization (${error.slice(0, 100)}).`,
    );
  }
}
