import type { Logger } from 'pino';
import type { GitHubAppCredentials, GitHubAppCredentialsSource } from '../core/github/app-credentials.js';
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
  /**
   * The App's credentials in force at each call (environment, else the studio's registration);
   * when set, `appId` and `privateKey` are only what is known at start.
   */
  appCredentials?: GitHubAppCredentialsSource;
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
  /** Reads the credentials in force now, so `appId`, `app` and `whyNot` are current (a job calls it before reading them). */
  refresh(): Promise<void>;
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
function installationLookup(app: GitHubAppClient): (repoRoot: string) => Promise<number | null> {
  const installations = new Map<string, { id: number | null; at: number }>();
  return async (repoRoot) => {
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

/** The App's client for one set of credentials, with its installation lookups. */
interface AppInForce {
  key: string;
  client: GitHubAppClient;
  installationOf(repoRoot: string): Promise<number | null>;
}

/**
 * GitHub access through Probot: posting uses the App's installation token when App credentials
 * are in force, else GITHUB_TOKEN, else nothing (`whyNot` says so). The App is the one in force
 * at call time (`appCredentials`): a registration made from the studio, on this replica or
 * another, is used without a restart; each App gets its own Probot, with its own token cache.
 */
export function createGitHubAccess(credentials: GitHubCredentials): GitHubAppAccess {
  const { token, baseUrl, logger } = credentials;
  const tokenProbot = token ? createProbot({ token, baseUrl, logger }) : null;
  const asToken = async () => (tokenProbot ? ((await tokenProbot.auth()) as RestOctokit) : null);
  let inForce: AppInForce | null = null;
  const use = (found: Pick<GitHubAppCredentials, 'appId' | 'privateKey'> | null): AppInForce | null => {
    if (!found) return (inForce = null);
    const key = `${found.appId}\0${found.privateKey}`;
    if (inForce?.key === key) return inForce;
    const client = appClient({ appId: found.appId, privateKey: found.privateKey, baseUrl, logger });
    return (inForce = { key, client, installationOf: installationLookup(client) });
  };
  const { appId, privateKey } = credentials;
  use(appId && privateKey ? { appId, privateKey } : null);
  const source = credentials.appCredentials;
  const current = async () => (source ? use(await source.current()) : inForce);
  /** The App in force at each call, for what holds on to `app` (deployment answers, recovery). */
  const liveApp: GitHubAppClient = {
    get appId() {
      return inForce?.client.appId ?? 0;
    },
    async asApp() {
      const app = await current();
      if (!app) throw new Error('No GitHub App is configured.');
      return app.client.asApp();
    },
    async asInstallation(installationId) {
      const app = await current();
      if (!app) throw new Error('No GitHub App is configured.');
      return app.client.asInstallation(installationId);
    },
  };
  return {
    get appId() {
      return inForce?.client.appId ?? null;
    },
    get app() {
      return inForce ? liveApp : null;
    },
    get whyNot() {
      return inForce || tokenProbot
        ? null
        : 'Neither the GitHub App (APP_ID with PRIVATE_KEY or PRIVATE_KEY_PATH) nor GITHUB_TOKEN is configured: decisions are recorded but not posted to GitHub. An ADMIN can register the App from the studio (GitHub page).';
    },
    async repository(repoRoot, installationId) {
      const app = await current();
      if (!app) {
        const octokit = await asToken();
        return octokit && octokitGitHubRepository(octokit, repoRoot, null);
      }
      const id = installationId ?? (await app.installationOf(repoRoot));
      return id === null ? null : octokitGitHubRepository(await app.client.asInstallation(id), repoRoot, app.client.appId);
    },
    async refresh() {
      await current();
    },
    async readerOctokit(repoRoot) {
      const app = await current();
      const id = app ? await app.installationOf(repoRoot) : null;
      return id !== null && app ? app.client.asInstallation(id) : asToken();
    },
  };
}
