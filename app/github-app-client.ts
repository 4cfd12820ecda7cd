import type { Logger } from 'pino';
import { Probot } from 'probot';
import { JobRetriedOctokit } from './github-access.js';
import type { RestOctokit } from './octokit-github-repository.js';

/** The App itself (JWT) and its installations: what deployment answers and delivery recovery call GitHub as. */
export interface GitHubAppClient {
  appId: number;
  /** Authenticated as the App (JWT): its deliveries, its installations. */
  asApp(): Promise<RestOctokit>;
  /** Authenticated with an installation's token (cached by Probot for about an hour). */
  asInstallation(installationId: number): Promise<RestOctokit>;
}

/** null without App credentials (APP_ID with a private key): GITHUB_TOKEN cannot act as the App. */
export function createGitHubAppClient(credentials: {
  appId?: string;
  privateKey?: string;
  baseUrl: string;
  logger: Logger;
}): GitHubAppClient | null {
  const { appId, privateKey, baseUrl, logger } = credentials;
  if (!appId || !privateKey) return null;
  const probot = new Probot({
    appId,
    privateKey: privateKey.replace(/\\n/g, '\n'),
    baseUrl,
    Octokit: JobRetriedOctokit,
    log: logger.child({ name: 'probot' }) as never,
  });
  return {
    appId: Number(appId),
    asApp: async () => (await probot.auth()) as RestOctokit,
    asInstallation: async (installationId) => (await probot.auth(installationId)) as RestOctokit,
  };
}
