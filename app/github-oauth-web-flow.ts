import type { GitHubOAuthExchange, GitHubOAuthUser, OAuthClient } from '../core/accounts/github-sign-in.js';
import { UnavailableError, ValidationError } from '../core/errors.js';
import { GITHUB_FETCH_HEADERS } from './create-probot.js';

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

/** The user, read with the user's token. */
async function readUser(apiBaseUrl: string, token: string): Promise<GitHubOAuthUser> {
  const read = await call(
    `${apiBaseUrl}/user`,
    {
      headers: { ...GITHUB_FETCH_HEADERS, authorization: `Bearer ${token}` },
    },
    'read the signed-in user',
  );
  if (!read.ok) throw new UnavailableError(`GitHub answered ${read.status} to GET /user during the sign-in; try again.`);
  const user = (await read.json()) as { id?: unknown; login?: unknown; name?: unknown };
  if (typeof user.id !== 'number' || typeof user.login !== 'string')
    throw new UnavailableError('GitHub answered GET /user without an id and login.');
  return { id: user.id, login: user.login, name: typeof user.name === 'string' ? user.name : null };
}

/** `DELETE /applications/{client_id}/token` (the OAuth client's basic auth): GitHub forgets the user's token. */
async function revokeToken(apiBaseUrl: string, client: OAuthClient, token: string): Promise<void> {
  const revoked = await call(
    `${apiBaseUrl}/applications/${encodeURIComponent(client.clientId)}/token`,
    {
      method: 'DELETE',
      headers: {
        ...GITHUB_FETCH_HEADERS,
        authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ access_token: token }),
    },
    "revoke the sign-in's user token",
  );
  if (revoked.status !== 204) throw new UnavailableError(`GitHub answered ${revoked.status} to revoking the sign-in's user token.`);
}

/**
 * GitHub's web application flow, server side (docs/github-app.md, "Sign in with GitHub"): the
 * code and the PKCE verifier for a user token at `<web>/login/oauth/access_token`, then
 * `GET /user` with that token, then the token is revoked: shipgate has no other use for it
 * (repository permissions are read with the App's installation token). It lives in this
 * function only: never stored, logged or returned. A revocation GitHub refuses does not fail
 * the sign-in; `onRevokeFailed` hears why (the token then expires on its own, after 8 hours).
 */
export function githubOAuthWebFlow(
  webUrl: string,
  apiBaseUrl: string,
  onRevokeFailed: (reason: string) => void = () => {},
): GitHubOAuthExchange {
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
      const token = answer.access_token;
      try {
        return await readUser(apiBaseUrl, token);
      } finally {
        await revokeToken(apiBaseUrl, client, token).catch((error: unknown) => onRevokeFailed((error as Error).message));
      }
    },
  };
}
