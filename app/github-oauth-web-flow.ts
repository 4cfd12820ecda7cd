import type { GitHubOAuthExchange, GitHubOAuthUser } from '../core/accounts/github-sign-in.js';
import { UnavailableError, ValidationError } from '../core/errors.js';
import { GITHUB_API_VERSION, GITHUB_JSON_MEDIA_TYPE } from './create-probot.js';

/** GitHub's answer from `POST /login/oauth/access_token` with `Accept: application/json` (errors come with 200 too). */
interface TokenAnswer {
  access_token?: string;
  error?: string;
  error_description?: string;
}

const TIMEOUT_MS = 20_000;

async function call(url: string, init: RequestInit, what: string): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw new UnavailableError(`GitHub could not be reached to ${what}: ${(error as Error).message}`);
  }
}

/**
 * GitHub's web application flow, server side (docs/github-app.md, "Sign in with GitHub"): the
 * code and the PKCE verifier for a user token at `<web>/login/oauth/access_token`, then
 * `GET /user` with that token. The token lives in this function only: it is never stored,
 * logged or returned (repository permissions are read with the App's installation token).
 */
export function githubOAuthWebFlow(webUrl: string, apiBaseUrl: string): GitHubOAuthExchange {
  return {
    async userFor(client, code, codeVerifier) {
      const exchanged = await call(
        `${webUrl}/login/oauth/access_token`,
        {
          method: 'POST',
          headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'shipgate' },
          body: new URLSearchParams({
            client_id: client.clientId,
            client_secret: client.clientSecret,
            code,
            redirect_uri: client.redirectUri,
            code_verifier: codeVerifier,
          }).toString(),
        },
        'finish the sign-in',
      );
      if (!exchanged.ok) throw new UnavailableError(`GitHub answered ${exchanged.status} to the sign-in's code exchange; try again.`);
      const answer = (await exchanged.json().catch(() => ({}))) as TokenAnswer;
      if (answer.error === 'bad_verification_code') {
        throw ValidationError.single(
          ['query', 'code'],
          'GitHub does not know this code (it is valid once, for 10 minutes): sign in again.',
        );
      }
      if (!answer.access_token) {
        // incorrect_client_credentials, redirect_uri_mismatch, …: the operator's configuration, not the user's doing.
        throw new UnavailableError(
          `GitHub refused the sign-in's code exchange (${answer.error ?? 'no token'}): check the App's OAuth client (client id and secret, callback URL).`,
        );
      }
      const read = await call(
        `${apiBaseUrl}/user`,
        {
          headers: {
            accept: GITHUB_JSON_MEDIA_TYPE,
            authorization: `Bearer ${answer.access_token}`,
            'x-github-api-version': GITHUB_API_VERSION,
            'user-agent': 'shipgate',
          },
        },
        'read the signed-in user',
      );
      if (!read.ok) throw new UnavailableError(`GitHub answered ${read.status} to GET /user during the sign-in; try again.`);
      const user = (await read.json()) as { id?: unknown; login?: unknown; name?: unknown };
      if (typeof user.id !== 'number' || typeof user.login !== 'string')
        throw new UnavailableError('GitHub answered GET /user without an id and login.');
      return { id: user.id, login: user.login, name: typeof user.name === 'string' ? user.name : null } satisfies GitHubOAuthUser;
    },
  };
}
