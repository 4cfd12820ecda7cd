import type { Logger } from 'pino';
import type { GitHubAppCredentials, GitHubAppCredentialsSource } from '../core/github/app-credentials.js';
import type { GitHubAccess } from '../core/github/github-port.js';
import { parseRepoRoot } from '../core/release/github-identifiers.js';
import { createProbot, type RestOctokit } from './create-probot.js';
import { statusOf } from './github-errors.js';
import { octokitGitHubRepository } from './octokit-github-repository.js';
import { createTeamMembersCache } from './team-members-cache.js';

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

/**
 * The GitHub credentials in force at one moment, as `GitHubAppAccess.current()` answers them: a
 * caller asks when it needs GitHub and does not keep the answer, so an App registered from the
 * studio (on any replica) is used without a restart (docs/github-app.md, "Where the App's credentials come from").
 */
export interface GitHubInForce {
  /** The App, or null without App credentials (APP_ID with a private key, or a registration): GITHUB_TOKEN cannot act as the App. */
  app: GitHubAppClient | null;
  /** Why nothing can be posted (neither an App nor GITHUB_TOKEN), else null. */
  whyNot: string | null;
}

/** Every way the process reaches GitHub, built once by the composition root (ARCHITECTURE.md, "GitHub App"). */
export interface GitHubAppAccess extends GitHubAccess {
  /** The credentials in force now: the environment's, else the studio's registration. Ask at the moment of need. */
  current(): Promise<GitHubInForce>;
  /** What reads a repository: the App's installation token where it is installed, else GITHUB_TOKEN, else null. */
  readerOctokit(repoRoot: string): Promise<RestOctokit | null>;
}

/** Why nothing reaches GitHub while neither an App nor GITHUB_TOKEN is configured. */
export const NO_GITHUB_ACCESS =
  'Neither the GitHub App (APP_ID with PRIVATE_KEY or PRIVATE_KEY_PATH) nor GITHUB_TOKEN is configured: decisions are recorded but not posted to GitHub. An ADMIN can register the App from the studio (GitHub page).';

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
 * Nothing here answers from what was in force at an earlier call: every answer asks `current()`.
 */
export function createGitHubAccess(credentials: GitHubCredentials): GitHubAppAccess {
  const { token, baseUrl, logger } = credentials;
  const tokenProbot = token ? createProbot({ token, baseUrl, logger }) : null;
  const asToken = async () => (tokenProbot ? ((await tokenProbot.auth()) as RestOctokit) : null);
  // GITHUB_TOKEN's user, once GitHub has said it (the token is the process's: it does not change).
  let tokenUser: string | undefined;
  const tokenLogin = (octokit: RestOctokit) => async () => {
    tokenUser ??= await octokit.rest.users.getAuthenticated().then(
      ({ data }) => data.login.toLowerCase(),
      () => undefined,
    );
    return tokenUser ?? null;
  };
  let opened: AppInForce | null = null;
  /** The client of `found`, opened once per set of credentials (its Probot keeps the installation tokens). */
  const use = (found: Pick<GitHubAppCredentials, 'appId' | 'privateKey'> | null): AppInForce | null => {
    if (!found) return null;
    const key = `${found.appId}\0${found.privateKey}`;
    if (opened?.key === key) return opened;
    const client = appClient({ appId: found.appId, privateKey: found.privateKey, baseUrl, logger });
    return (opened = { key, client, installationOf: installationLookup(client) });
  };
  const { appId, privateKey } = credentials;
  const fromEnvironment = use(appId && privateKey ? { appId, privateKey } : null);
  const source = credentials.appCredentials;
  const inForce = async () => (source ? use(await source.current()) : fromEnvironment);
  const whyNot = (app: AppInForce | null) => (app || tokenProbot ? null : NO_GITHUB_ACCESS);
  // Team members read for rules and code owners, kept a minute per credentials (docs/github-app.md, "Teams").
  const teamMembers = createTeamMembersCache();
  return {
    async current() {
      const app = await inForce();
      return { app: app?.client ?? null, whyNot: whyNot(app) };
    },
    async whyNot() {
      return whyNot(await inForce());
    },
    async repository(repoRoot, installationId) {
      const app = await inForce();
      if (!app) {
        const octokit = await asToken();
        return (
          octokit &&
          octokitGitHubRepository(octokit, repoRoot, { tokenLogin: tokenLogin(octokit) }, { cache: teamMembers, credentials: 'token' })
        );
      }
      const id = installationId ?? (await app.installationOf(repoRoot));
      const teams = { cache: teamMembers, credentials: `app:${app.client.appId}:installation:${id}` };
      return id === null
        ? null
        : octokitGitHubRepository(await app.client.asInstallation(id), repoRoot, { appId: app.client.appId }, teams);
    },
    async readerOctokit(repoRoot) {
      const app = await inForce();
      const id = app ? await app.installationOf(repoRoot) : null;
      return id !== null && app ? app.client.asInstallation(id) : asToken();
    },
  };
}
