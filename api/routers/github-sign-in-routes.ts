import type Koa from 'koa';
import { z } from 'zod';
import {
  abandonGitHubSignIn,
  completeGitHubSignIn,
  exchangeSignInCode,
  startGitHubSignIn,
} from '../../core/accounts/complete-github-sign-in.js';
import { GitHubSignInRefused } from '../../core/accounts/github-org-admission.js';
import { ConflictError, ForbiddenError, ShipgateError, UnavailableError, ValidationError } from '../../core/errors.js';
import type { Deps } from '../deps.js';
import { authorizeUrl, NotConfigured, oauthClient, SETS_SIGN_IN_COOKIE } from '../github-oauth-client.js';
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
const clearsCookie = {
  'Set-Cookie': {
    description: 'Removes the sign-in cookie (it serves one callback), or, signed in, keeps it for the exchange of the code.',
    schema: z.string().optional(),
  },
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
        headers: SETS_SIGN_IN_COOKIE,
      },
      302: { description: "On to GitHub's authorization page.", headers: { ...location, ...SETS_SIGN_IN_COOKIE } },
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
    method: 'get',
    path: '/auth/github/callback',
    tags,
    auth: 'public',
    summary: 'Where GitHub sends the browser back (no key)',
    description:
      'Takes the single-use `state` (unknown, used or expired: refused), requires the sign-in cookie of the browser that started it ' +
      '(missing or another nonce: refused, `browser`; the cookie is cleared, except after a sign-in: the code is bound to it), exchanges `code` with the PKCE verifier for the ' +
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
        // The code is this browser's only (core/accounts/complete-github-sign-in.ts): its cookie stays for the exchange.
        ctx.set('Set-Cookie', cookie.set(cookie.read(ctx)!));
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
    path: '/auth/github/exchange',
    tags,
    auth: 'public',
    summary: 'Trade the one-time sign-in code for a new key (no key)',
    description:
      'The studio\'s last step of "Sign in with GitHub": the `github_code` the callback put in the studio\'s URL, valid once for ' +
      "1 minute, for a NEW key (label `github`) of the signed-in user; the user's other keys stay valid. Only the browser that " +
      'finished the callback can trade it: the request must carry its sign-in cookie (kept by the callback, removed here), so a ' +
      'code handed to another browser signs no one in there (login CSRF).',
    body: githubExchangeRequestSchema,
    responses: {
      200: {
        description: 'A new key.',
        schema: loginResponseSchema,
        headers: { 'Set-Cookie': { description: 'Removes the sign-in cookie: it serves one exchange.', schema: z.string().optional() } },
      },
    },
    errors: {
      403: 'Account deactivated.',
      422: 'The code is unknown, already used or expired, or this browser lacks the sign-in cookie it was given to.',
      429: 'Too many requests from this address; see Retry-After.',
    },
    async handler({ body, ctx, deps }) {
      const cookie = signInCookie(deps.config.publicUrl);
      const browserNonce = cookie.read(ctx);
      // The cookie serves one exchange, whatever its outcome.
      ctx.set('Set-Cookie', cookie.clear());
      await limit(deps, `ip:${ctx.ip}:github-sign-in`);
      return { body: userWithKey(await exchangeSignInCode(deps.githubSignIn, deps.accounts, body.code, browserNonce)) };
    },
  }),
];

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
