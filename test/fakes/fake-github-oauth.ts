import { createHash, randomBytes } from 'node:crypto';
import { CREATED, idOf, installationJson, TOKEN_USER, userJson, withPersonalToken } from './fake-github-shapes.js';
import { gitHubError, type GitHubReply, type GitHubRoute, type GitHubRouteContext } from './fake-github-route.js';

/** A GitHub account that can sign in through the fake's OAuth pages. */
export interface FakeOAuthUser {
  id: number;
  login: string;
  name: string | null;
}

/** What a web page answered: a redirect or a JSON body (outside the REST API, so not in its description). */
export interface WebReply {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

interface IssuedCode {
  login: string;
  clientId: string;
  redirectUri: string;
  challenge: string | null;
}

const OAUTH_DOCS = 'https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors';

/**
 * GitHub's web application flow (https://docs.github.com/apps/creating-github-apps/authenticating-with-a-github-app/generating-a-user-access-token-for-a-github-app)
 * and what "Sign in with GitHub" reads with it: `/login/oauth/authorize` (the user's consent, simulated:
 * `signedInAs` approves, or `deny` cancels), `POST /login/oauth/access_token` (GitHub's JSON answers,
 * errors with status 200 included, PKCE S256 checked), `GET /user` with the user's token, its
 * revocation (`DELETE /applications/{client_id}/token`), and the
 * organisations: `GET /orgs/{org}/installation` (as the App) and `GET /orgs/{org}/members/{username}`
 * (with that installation's token). Tests configure users, memberships and installations.
 */
export class FakeGitHubOAuth {
  /** The App's OAuth client (GITHUB_CLIENT_ID / GITHUB_CLIENT_SECRET of `env()`). */
  clientId = 'Iv1.fakeoauthclient';
  clientSecret = 'fake-oauth-client-secret';
  /** login (lower case) -> the account. */
  users = new Map<string, FakeOAuthUser>();
  /** org (lower case) -> member logins (lower case). */
  members = new Map<string, Set<string>>();
  /** org (lower case) -> the App's installation id there; an org not here has no installation (404). */
  orgInstallations = new Map<string, number>();
  /** Who is signed in to GitHub in the browser and approves the next authorization. */
  signedInAs: string | null = null;
  /** The next authorizations are cancelled by the user (`error=access_denied`). */
  deny = false;
  /** Every user token ever issued (a test checks none of them was stored or logged). */
  issuedTokens: string[] = [];
  /** The user tokens revoked through `DELETE /applications/{client_id}/token`, in order. */
  revokedTokens: string[] = [];
  private codes = new Map<string, IssuedCode>();
  private tokens = new Map<string, string>();

  /** Adds (or replaces) a GitHub account, member of `orgs`; answers it. */
  user(login: string, options: { id?: number; name?: string | null; orgs?: string[] } = {}): FakeOAuthUser {
    const user = { id: options.id ?? idOf(`oauth:${login}`), login, name: options.name === undefined ? login : options.name };
    for (const [key, existing] of this.users) if (existing.id === user.id) this.users.delete(key);
    this.users.set(login.toLowerCase(), user);
    for (const org of options.orgs ?? []) this.memberOf(org, login);
    return user;
  }

  memberOf(org: string, login: string): void {
    const key = org.toLowerCase();
    if (!this.members.has(key)) this.members.set(key, new Set());
    this.members.get(key)!.add(login.toLowerCase());
  }

  /** The browser's visit to the authorization page: back to `redirect_uri` with a code, or with the refusal. */
  authorize(query: URLSearchParams): WebReply {
    const clientId = query.get('client_id');
    const redirect = query.get('redirect_uri');
    if (clientId !== this.clientId || !redirect) return { status: 404, body: { message: 'Not Found' } };
    const back = new URL(redirect);
    const state = query.get('state');
    if (this.deny || !this.signedInAs || !this.users.has(this.signedInAs.toLowerCase())) {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', 'The user has denied your application access.');
      back.searchParams.set('error_uri', OAUTH_DOCS);
    } else {
      const method = query.get('code_challenge_method');
      const challenge = query.get('code_challenge');
      if (challenge && method !== 'S256') return { status: 422, body: { message: 'code_challenge_method must be S256' } };
      const code = randomBytes(10).toString('hex');
      this.codes.set(code, { login: this.signedInAs.toLowerCase(), clientId, redirectUri: redirect, challenge });
      back.searchParams.set('code', code);
    }
    if (state !== null) back.searchParams.set('state', state);
    return { status: 302, headers: { location: back.href } };
  }

  /** `POST /login/oauth/access_token`: form or JSON parameters; JSON answers (errors are 200s, as GitHub sends them). */
  accessToken(params: URLSearchParams): WebReply {
    const error = (code: string, description: string) => ({
      status: 200,
      body: { error: code, error_description: description, error_uri: OAUTH_DOCS },
    });
    if (params.get('client_id') !== this.clientId || params.get('client_secret') !== this.clientSecret) {
      return error('incorrect_client_credentials', 'The client_id and/or client_secret passed are incorrect.');
    }
    const code = params.get('code') ?? '';
    const issued = this.codes.get(code);
    this.codes.delete(code);
    if (!issued || issued.clientId !== params.get('client_id'))
      return error('bad_verification_code', 'The code passed is incorrect or expired.');
    if (params.has('redirect_uri') && params.get('redirect_uri') !== issued.redirectUri) {
      return error('redirect_uri_mismatch', 'The redirect_uri MUST match the registered callback URL for this application.');
    }
    const verifier = params.get('code_verifier');
    const challenge = verifier ? createHash('sha256').update(verifier).digest('base64url') : null;
    if (issued.challenge !== challenge) return error('bad_verification_code', 'The code passed is incorrect or expired.');
    const token = `ghu_${randomBytes(18).toString('base64url')}`;
    this.tokens.set(token, issued.login);
    this.issuedTokens.push(token);
    return {
      status: 200,
      body: {
        access_token: token,
        expires_in: 28800,
        refresh_token: `ghr_${randomBytes(30).toString('base64url')}`,
        refresh_token_expires_in: 15897600,
        token_type: 'bearer',
        scope: '',
      },
    };
  }

  /** The REST endpoints sign-in reads (validated against GitHub's description by the server). */
  routes(app: { appId: number }, apiBase: () => string): GitHubRoute[] {
    const tokenOf = (ctx: GitHubRouteContext) => ctx.headers.authorization?.replace(/^(token|bearer)\s+/i, '') ?? '';
    return [
      {
        method: 'GET',
        pattern: '/user',
        handle: (ctx): GitHubReply => {
          const login = this.tokens.get(tokenOf(ctx));
          const user = login ? this.users.get(login) : undefined;
          if (!user && withPersonalToken(ctx.headers.authorization)) {
            return { body: privateUserJson(apiBase(), { id: idOf(TOKEN_USER), login: TOKEN_USER, name: null }) };
          }
          if (!user) return gitHubError(401, 'Bad credentials');
          return { body: privateUserJson(apiBase(), user) };
        },
      },
      {
        method: 'DELETE',
        pattern: '/applications/{client_id}/token',
        handle: (ctx): GitHubReply => {
          // As the OAuth client: basic authentication with its id and secret.
          const basic = `Basic ${Buffer.from(`${this.clientId}:${this.clientSecret}`).toString('base64')}`;
          if (ctx.params.client_id !== this.clientId || ctx.headers.authorization !== basic) return gitHubError(404, 'Not Found');
          const token = (ctx.body as { access_token?: unknown } | undefined)?.access_token;
          if (typeof token !== 'string' || !this.tokens.delete(token)) return gitHubError(422, 'Validation Failed');
          this.revokedTokens.push(token);
          return { status: 204 };
        },
      },
      {
        method: 'GET',
        pattern: '/orgs/{org}/installation',
        handle: (ctx) => {
          // As the App: a JWT, never an installation's or a user's token.
          if (!/^eyJ/.test(tokenOf(ctx))) return gitHubError(401, 'A JSON web token could not be decoded');
          const id = this.orgInstallations.get(ctx.params.org.toLowerCase());
          return id === undefined ? gitHubError(404, 'Not Found') : { body: installationJson(apiBase(), id, app.appId, ctx.params.org) };
        },
      },
      {
        method: 'GET',
        pattern: '/orgs/{org}/members/{username}',
        handle: (ctx) => {
          const org = ctx.params.org.toLowerCase();
          const id = this.orgInstallations.get(org);
          // Only the organisation's own installation token may ask (it needs members: read).
          if (id === undefined || tokenOf(ctx) !== `ghs_installation_${id}`)
            return gitHubError(403, 'Resource not accessible by integration');
          return this.members.get(org)?.has(ctx.params.username.toLowerCase()) ? { status: 204 } : { status: 404 };
        },
      },
    ];
  }
}

/** `GET /user` for the token's owner: the private view (every field GitHub's `private-user` requires). */
function privateUserJson(api: string, user: FakeOAuthUser) {
  return {
    ...userJson(api, user.login),
    id: user.id,
    user_view_type: 'private',
    name: user.name,
    company: null,
    blog: '',
    location: null,
    email: null,
    hireable: null,
    bio: null,
    public_repos: 0,
    public_gists: 0,
    followers: 0,
    following: 0,
    created_at: CREATED,
    updated_at: CREATED,
    private_gists: 0,
    total_private_repos: 0,
    owned_private_repos: 0,
    disk_usage: 0,
    collaborators: 0,
    two_factor_authentication: true,
  };
}
