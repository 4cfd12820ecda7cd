import type { Logger } from 'pino';
import { Probot, ProbotOctokit } from 'probot';
import type { GitHubAccess } from '../core/github/github-port.js';
import { statusOf } from './github-errors.js';
import { octokitGitHubRepository, type RestOctokit } from './octokit-github-repository.js';

export interface GitHubCredentials {
  appId?: string;
  /** The App's private key (PEM text; `\n` escapes allowed, as Probot allows). */
  privateKey?: string;
  /** GITHUB_TOKEN: used when the App's credentials are not configured. */
  token?: string;
  /** The REST API base, e.g. https://api.github.com or http(s)://GHE_HOST/api/v3. */
  baseUrl: string;
  logger: Logger;
}

export interface GitHubAppAccess extends GitHubAccess {
  /** Our App's id (events about its own check run are ignored), null without App credentials. */
  appId: number | null;
  /** An octokit with the App's installation token for the repository, or null when the App is not installed there. */
  installationOctokit(repoRoot: string): Promise<RestOctokit | null>;
}

/** Installation lookups are remembered this long (an App installed later is seen after at most this). */
const INSTALLATION_TTL_MS = 10 * 60 * 1000;

/**
 * Retries and throttling are the job's: it honours Retry-After across attempts and never sleeps
 * inside a request. Probot's plugins would retry 5xx in-process and only log secondary rate limits.
 */
export const JobRetriedOctokit = ProbotOctokit.defaults((options: Record<string, unknown>) => ({
  ...options,
  // A function, not an object: Probot merges its own throttle options in later, and they would win
  // (its write queue spaces comment creations 3 s apart, one at a time, across the whole process).
  retry: { enabled: false },
  throttle: { ...(options.throttle as object | undefined), enabled: false },
}));

/**
 * GitHub access for posting, through Probot: the App's installation token when APP_ID and the
 * private key are configured, else GITHUB_TOKEN, else none (`whyNot` says so).
 */
export function createGitHubAccess(credentials: GitHubCredentials): GitHubAppAccess {
  const { appId, privateKey, token, baseUrl, logger } = credentials;
  const log = logger.child({ name: 'probot' }) as never;
  if (appId && privateKey) {
    const probot = new Probot({ appId, privateKey: privateKey.replace(/\\n/g, '\n'), baseUrl, Octokit: JobRetriedOctokit, log });
    const installations = new Map<string, { id: number | null; at: number }>();
    async function installationOf(repoRoot: string): Promise<number | null> {
      const cached = installations.get(repoRoot);
      if (cached && Date.now() - cached.at < INSTALLATION_TTL_MS) return cached.id;
      const [owner, repo] = repoRoot.split('/');
      const asApp = (await probot.auth()) as RestOctokit;
      let id: number | null = null;
      try {
        id = (await asApp.rest.apps.getRepoInstallation({ owner, repo })).data.id;
      } catch (error) {
        if (statusOf(error) !== 404) throw error;
      }
      installations.set(repoRoot, { id, at: Date.now() });
      return id;
    }
    const numericAppId = Number(appId);
    return {
      appId: numericAppId,
      whyNot: null,
      async repository(repoRoot, installationId) {
        const id = installationId ?? (await installationOf(repoRoot));
        if (id === null) return null;
        return octokitGitHubRepository((await probot.auth(id)) as RestOctokit, repoRoot, numericAppId);
      },
      async installationOctokit(repoRoot) {
        const id = await installationOf(repoRoot);
        return id === null ? null : ((await probot.auth(id)) as RestOctokit);
      },
    };
  }
  if (token) {
    const probot = new Probot({ githubToken: token, baseUrl, Octokit: JobRetriedOctokit, log });
    return {
      appId: null,
      whyNot: null,
      repository: async (repoRoot) => octokitGitHubRepository((await probot.auth()) as RestOctokit, repoRoot, null),
      installationOctokit: async () => null,
    };
  }
  return {
    appId: null,
    whyNot:
      'Neither the GitHub App (APP_ID with PRIVATE_KEY or PRIVATE_KEY_PATH) nor GITHUB_TOKEN is configured: decisions are recorded but not posted to GitHub.',
    repository: async () => null,
    installationOctokit: async () => null,
  };
}
