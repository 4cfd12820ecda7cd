import type { Response } from 'supertest';
import type { FakeGitHub } from '../../fakes/fake-github-server.js';
import { appEnv, appPrivateKey } from '../../support/github-deliveries.js';
import type { EmptyTestApp } from '../../support/test-app.js';

/** shipgate as the fake GitHub's App, with its OAuth client ("Sign in with GitHub"). */
export function signInEnv(gh: FakeGitHub, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...appEnv(gh, 'sign-in-webhook-secret', appPrivateKey()),
    GITHUB_CLIENT_ID: gh.oauth.clientId,
    GITHUB_CLIENT_SECRET: gh.oauth.clientSecret,
    ...extra,
  };
}

/** What a browser saw along the way: every URL it was sent to, and where it landed in the studio. */
export interface FlowResult {
  /** The studio URL the callback sent the browser to (303), or null when the callback answered otherwise. */
  studio: URL | null;
  /** The studio route's query (`github_code`, `github_error`, `github`), read from the hash. */
  result: URLSearchParams;
  /** Every URL of the flow: the authorization page, the callback, the studio. */
  urls: string[];
  callback: Response;
  /** The callback URL GitHub sent the browser to (path and query), to replay it. */
  callbackPath: string;
}

const asBrowser = { Accept: 'text/html,application/xhtml+xml' };

/** The `name=value` of the sign-in cookie a start (or a link's start) set, as the browser sends it back; '' when none. */
export function sentCookie(started: Response): string {
  const set = ([] as string[]).concat(started.headers['set-cookie'] ?? []);
  const cookie = set.find((c) => /^(__Host-)?shipgate_github_sign_in=/.test(c));
  return cookie ? cookie.split(';')[0] : '';
}

/**
 * The browser's trip through GitHub from a start's answer (its authorization URL and sign-in cookie,
 * which the browser sends back to the callback), or from a bare authorization URL (a browser without
 * the cookie): consent (or not) as `gh.oauth` is set, then the callback.
 */
export async function throughGitHub(
  t: EmptyTestApp,
  started: Response | string,
  headers: Record<string, string> = asBrowser,
): Promise<FlowResult> {
  const authorizeUrl = typeof started === 'string' ? started : ((started.headers.location ?? started.body.authorize_url) as string);
  const cookie = typeof started === 'string' ? '' : sentCookie(started);
  const consent = await fetch(authorizeUrl, { redirect: 'manual' });
  if (consent.status !== 302) throw new Error(`GitHub's authorize page answered ${consent.status}: ${await consent.text()}`);
  const back = new URL(consent.headers.get('location')!);
  const callbackPath = `${back.pathname}${back.search}`;
  const callback = await t.request
    .get(callbackPath)
    .set(headers)
    .set(cookie ? { Cookie: cookie } : {});
  const studio = callback.status === 303 ? new URL(callback.headers.location) : null;
  const result = new URLSearchParams(studio?.hash.split('?')[1] ?? '');
  return { studio, result, urls: [authorizeUrl, back.href, ...(studio ? [studio.href] : [])], callback, callbackPath };
}

/** A whole sign-in as `login` through the studio's path: start, GitHub, the callback, then the code's exchange. */
export async function signInWithGitHub(t: EmptyTestApp, gh: FakeGitHub, login: string) {
  gh.oauth.signedInAs = login;
  const start = await t.request.get('/api/v1/auth/github/start').set(asBrowser);
  if (start.status !== 302) throw new Error(`start answered ${start.status} ${start.text}`);
  const flow = await throughGitHub(t, start);
  const code = flow.result.get('github_code');
  // The studio's fetch, from the same browser: its sign-in cookie goes along (the code is bound to it).
  const exchange = code ? await t.request.post('/api/v1/auth/github/exchange').set('Cookie', sentCookie(start)).send({ code }) : null;
  return { ...flow, urls: [`/api/v1/auth/github/start`, ...flow.urls], start, code, exchange };
}

let serial = 0;
/** A GitHub login no other test of the run uses (tests share one fake GitHub per file). */
export const uniqueLogin = (prefix: string) => `${prefix}-${++serial}-${Date.now().toString(36)}`;

/**
 * A whole link of `as`'s account to GitHub account `github` through the studio's path: POST
 * /auth/github/link, GitHub's consent, the callback (with the browser's cookie), then the pending
 * link's code finished with `as`'s key.
 */
export async function linkWithGitHub(t: EmptyTestApp, gh: FakeGitHub, as: { auth: { Authorization: string } }, github: string) {
  gh.oauth.signedInAs = github;
  const started = await t.request.post('/api/v1/auth/github/link').set(as.auth);
  if (started.status !== 200) throw new Error(`link answered ${started.status} ${started.text}`);
  const flow = await throughGitHub(t, started);
  const code = flow.result.get('github_link');
  const finish = code ? await t.request.post('/api/v1/auth/github/link/finish').set(as.auth).send({ code }) : null;
  return { ...flow, started, code, finish };
}
