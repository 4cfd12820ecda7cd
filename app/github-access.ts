import type { Logger } from 'pino';
import type { GitHubAccess } from '../core/github/github-port.js';
import { parseRepoRoot } from '../core/release/repo-names.js';
import { createProbot, type RestOctokit } from './create-probot.js';
import { statusOf } from './github-errors.js';
import { octokitGitHubRepository } from './octokit-github-repository.js';

export interface GitHubCredentials {
  appId?: string;
  /** The App's private key (PEM text; `\n` escapes allowed, as Probot allows). */
  privateKey?: string;
  /** GITHUB_TOKEN: posts when the App's credentials are not configured; reads where the App is not installed. */
  token?: string;
  /** The REST API base, e.g. https://api.github.com or http(s)://GHE_HOST/api/v3. */
  baseUrl: string;
  logger: Logger;
}

/** The App itself (JWT) and its installations: what deployment answers and delivery recovery call GitHub as. */
export interface GitHubAppClient {
  appId: number;
  /** Authenticated as the App (JWT): its deliveries, its installations. */
  asApp(): Promise<RestOctokit>;
  /** Authenticated with an installation's token (cached by Probot for about an hour). */
  asInstallation(installationId: number): Promise<RestOctokit>;
}

/** Every way the process reaches GitHub, built once by the composition root (ARCHITECTURE.md, "GitHub App"). */
export interface GitHubAppAccess extends GitHubAccess {
  /** Our App's id (events about its own check run are ignored), null without App credentials. */
  appId: number | null;
  /** The App, or null without App credentials (APP_ID with a private key): GITHUB_TOKEN cannot act as the App. */
  app: GitHubAppClient | null;
  /** What reads a repository: the App's installation token where it is installed, else GITHUB_TOKEN, else null. */
  readerOctokit(repoRoot: string): Promise<RestOctokit | null>;
}

/** Installation lookups are remembered this long (an App installed later is seen after at most this). */
const INSTALLATION_TTL_MS = 10 * 60 * 1000;

function appClient(credentials: GitHubCredentials & { appId: string; privateKey: string }): GitHubAppClient {
  const probot = createProbot(credentials);
  return {
    appId: Number(credentials.appId),
    asApp: async () => (await probot.auth()) as RestOctokit,
    asInstallation: async (installationId) => (await probot.auth(installationId)) as RestOctokit,
  };
}

/** The App's installation on a repository (null when it is not installed there), remembered for a while. */
function installationLookup(app: GitHubAppClient | null): (repoRoot: string) => Promise<number | null> {
  const installations = new Map<string, { id: number | null; at: number }>();
  return async (repoRoot) => {
    if (!app) return null;
    const cached = installations.get(repoRoot);
    if (cached && Date.now() - cached.at < INSTALLATION_TTL_MS) return cached.id;
    let id: number | null = null;
    try {
      id = (await (await app.asApp()).rest.apps.getRepoInstallation(parseRepoRoot(repoRoot))).data.id;
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
    }
    installations.set(repoRoot, { id, at: Date.now() });
    return id;
  };
}

/**
 * GitHub access through Probot: posting uses the App's installation token when APP_ID and the
 * private key are configured, else GITHUB_TOKEN, else nothing (`whyNot` says so).
 */
export function createGitHubAccess(credentials: GitHubCredentials): GitHubAppAccess {
  const { appId, privateKey, token, baseUrl, logger } = credentials;
  const app = appId && privateKey ? appClient({ appId, privateKey, baseUrl, logger }) : null;
  const tokenProbot = token ? createProbot({ token, baseUrl, logger }) : null;
  const asToken = async () => (tokenProbot ? ((await tokenProbot.auth()) as RestOctokit) : null);
  const installationOf = installationLookup(app);
  return {
    appId: app?.appId ?? null,
    app,
    whyNot:
      app || tokenProbot
        ? null
        : 'Neither the GitHub App (APP_ID with PRIVATE_KEY or PRIVATE_KEY_PATH) nor GITHUB_TOKEN is configured: decisions are recorded but not posted to GitHub.',
    async repository(repoRoot, installationId) {
      if (!app) {
        const octokit = await asToken();
        return octokit && octokitGitHubRepository(octokit, repoRoot, null);
      }
      const id = installationId ?? (await installationOf(repoRoot));
      return id === null ? null : octokitGitHubRepository(await app.asInstallation(id), repoRoot, app.appId);
    },
    async readerOctokit(repoRoot) {
      const id = await installationOf(repoRoot);
      return id !== null && app ? app.asInstallation(id) : asToken();
    },
  };
}
