import type { Logger } from 'pino';
import type { Config } from '../core/config.js';
import { createGitHubAppClient, type GitHubAppClient } from './github-app-client.js';
import { privateKeyOf } from './github-access-from-config.js';
import { githubApiBaseUrl } from './github-repo-reader.js';

/** The App client built from the one configuration; null without App credentials. */
export function githubAppClientFromConfig(config: Config, logger: Logger): GitHubAppClient | null {
  return createGitHubAppClient({
    appId: config.github.appId,
    privateKey: privateKeyOf(config.github),
    baseUrl: githubApiBaseUrl(config.github),
    logger,
  });
}
