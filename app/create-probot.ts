import type { Logger } from 'pino';
import { Probot, ProbotOctokit } from 'probot';
import { boundedGitHubFetch } from './github-fetch.js';

/** The REST API version shipgate's GitHub calls were written against (`X-GitHub-Api-Version`). */
export const GITHUB_API_VERSION = '2022-11-28';

/** GitHub's current JSON media type (octokit still defaults to the older `application/vnd.github.v3+json`). */
export const GITHUB_JSON_MEDIA_TYPE = 'application/vnd.github+json';

/** What a plain fetch to GitHub's REST API sends besides its authorization (sign-in, App registration). */
export const GITHUB_FETCH_HEADERS = {
  accept: GITHUB_JSON_MEDIA_TYPE,
  'x-github-api-version': GITHUB_API_VERSION,
  'user-agent': 'shipgate',
};

/** The documented media type for a file's raw text (the contents endpoint; also past the 1 MB JSON limit). */
export const GITHUB_RAW_MEDIA_TYPE = 'application/vnd.github.raw+json';

/** Probot's octokit: REST methods under `.rest`, paginate. */
export type RestOctokit = InstanceType<typeof ProbotOctokit>;

/**
 * The version and media type are request defaults, not a hook: the installation-token requests
 * Probot's auth sends are built from the calling octokit's defaults and skip its hooks.
 */
function githubHeaders(octokit: { request: RestOctokit['request'] }) {
  return { request: octokit.request.defaults({ headers: { accept: GITHUB_JSON_MEDIA_TYPE, 'x-github-api-version': GITHUB_API_VERSION } }) };
}

/**
 * Retries and throttling are the job's: it honours Retry-After across attempts and never sleeps
 * inside a request. Probot's plugins would retry 5xx in-process and only log secondary rate limits.
 */
const ShipgateOctokit = ProbotOctokit.plugin(githubHeaders).defaults((options: Record<string, unknown>) => ({
  ...options,
  // Bounded in time and size (app/github-fetch.ts); a test's own fetch (`request.fetch`) is kept.
  request: { fetch: boundedGitHubFetch(), ...(options.request as object | undefined) },
  // A function, not an object: Probot merges its own throttle options in later, and they would win
  // (its write queue spaces comment creations 3 s apart, one at a time, across the whole process).
  retry: { enabled: false },
  throttle: { ...(options.throttle as object | undefined), enabled: false },
}));

/** The App's id and private key (PEM text; `\n` escapes allowed, as Probot allows), or a token (GITHUB_TOKEN). */
export type ProbotCredentials = { appId: string; privateKey: string } | { token: string };

/**
 * The one place shipgate builds a Probot (a lint test keeps it so): the App's JWT and cached
 * installation tokens, or a token; every octokit it hands out has the headers above.
 */
export function createProbot(credentials: ProbotCredentials & { baseUrl: string; logger: Logger }): Probot {
  const { baseUrl, logger } = credentials;
  const auth =
    'token' in credentials
      ? { githubToken: credentials.token }
      : { appId: credentials.appId, privateKey: credentials.privateKey.replace(/\\n/g, '\n') };
  return new Probot({ ...auth, baseUrl, Octokit: ShipgateOctokit, log: logger.child({ name: 'probot' }) as never });
}
