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

/** The browser's trip through GitHub from an authorization URL: consent (or not) as `gh.oauth` is set, then the callback. */
export async function throughGitHub(
  t: EmptyTestApp,
  authorizeUrl: string,
  headers: Record<string, string> = asBrowser,
): Promise<FlowResult> {
  const consent = await fetch(authorizeUrl, { redirect: 'manual' });
  if (consent.status !== 302) throw new Error(`GitHub's authorize page answered ${consent.status}: ${await consent.text()}`);
  const back = new URL(consent.headers.get('location')!);
  const callbackPath = `${back.pathname}${back.search}`;
  const callback = await t.request.get(callbackPath).set(headers);
  const studio = callback.status === 303 ? new URL(callback.headers.location) : null;
  const result = new URLSearchParams(studio?.hash.split('?')[1] ?? '');
  return { studio, result, urls: [authorizeUrl, back.href, ...(studio ? [studio.href] : [])], callback, callbackPath };
}

/** A whole sign-in as `login` through the studio's path: start, GitHub, the callback, then the code's exchange. */
export async function signInWithGitHub(t: EmptyTestApp, gh: FakeGitHub, login: string) {
  gh.oauth.signedInAs = login;
  const start = await t.request.get('/api/v1/auth/github/start').set(asBrowser);
  if (start.status !== 302) throw new Error(`start answered ${start.status} ${start.text}`);
  const flow = await throughGitHub(t, start.headers.location);
  const code = flow.result.get('github_code');
  const exchange = code ? await t.request.post('/api/v1/auth/github/exchange').send({ code }) : null;
  return { ...flow, urls: [`/api/v1/auth/github/start`, ...flow.urls], start, code, exchange };
}

let serial = 0;
/** A GitHub login no other test of the run uses (tests share one fake GitHub per file). */
export const uniqueLogin = (prefix: string) => `${prefix}-${++serial}-${Date.now().toString(36)}`;
