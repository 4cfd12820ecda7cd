import { z } from 'zod';
import type { OAuthClient } from '../core/accounts/github-sign-in.js';
import { NotFoundError } from '../core/errors.js';
import { githubWebUrl, OAUTH_CALLBACK_PATH } from '../core/github/app-manifest.js';
import type { Deps } from './deps.js';

/**
 * The App's OAuth client for "Sign in with GitHub" and for linking an account (docs/github-app.md,
 * "Sign in with GitHub"): shared by the sign-in and the link routes.
 */

const NOT_CONFIGURED =
  "Sign in with GitHub is not configured: it needs the GitHub App's OAuth client (GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET with the App, or an App registered from the studio).";

/** The App's OAuth client in force, with this shipgate's callback; null when there is none. */
export async function oauthClient(deps: Deps): Promise<OAuthClient | null> {
  const app = await deps.appCredentials.current();
  if (!app?.clientId || !app.clientSecret) return null;
  return { clientId: app.clientId, clientSecret: app.clientSecret, redirectUri: `${deps.config.publicUrl}${OAUTH_CALLBACK_PATH}` };
}

/** GitHub's authorization page for a started sign-in or link (PKCE, S256). */
export function authorizeUrl(deps: Deps, client: OAuthClient, started: { state: string; codeChallenge: string }): string {
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

/** No OAuth client: 404 with what to configure. */
export class NotConfigured extends NotFoundError {
  constructor() {
    super('Sign in with GitHub');
    this.message = NOT_CONFIGURED;
  }
}

/** The sign-in cookie as the OpenAPI document describes the header that sets it. */
export const SETS_SIGN_IN_COOKIE = {
  'Set-Cookie': {
    description:
      'The sign-in cookie (`__Host-shipgate_github_sign_in`; `shipgate_github_sign_in` under a plain-http SHIPGATE_PUBLIC_URL): a nonce binding the state to this browser, HttpOnly, SameSite=Lax, 10 minutes.',
    schema: z.string(),
  },
};
