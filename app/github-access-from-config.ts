import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import type { Config } from '../core/config.js';
import { createGitHubAccess, type GitHubAppAccess } from './github-access.js';
import { githubApiBaseUrl } from './github-repo-reader.js';

/** The App's private key: PRIVATE_KEY, else the file PRIVATE_KEY_PATH names. */
export function privateKeyOf(github: Config['github']): string | undefined {
  if (github.privateKey) return github.privateKey;
  return github.privateKeyPath ? readFileSync(github.privateKeyPath, 'utf8') : undefined;
}

/** GitHub access built from the one configuration (never from process.env). */
export function githubAccessFromConfig(config: Config, logger: Logger): GitHubAppAccess {
  return createGitHubAccess({
    appId: config.github.appId,
    privateKey: privateKeyOf(config.github),
    token: config.github.token,
    baseUrl: githubApiBaseUrl(config.github),
    logger,
  });
}
