import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import type { Config } from '../core/config.js';
import type { GitHubAppCredentialsSource } from '../core/github/app-credentials.js';
import { createGitHubAccess, type GitHubAppAccess } from './github-access.js';

const GITHUB_API_BASE_URL = 'https://api.github.com';

/** GHE_HOST / GHE_PROTOCOL point every GitHub call at GitHub Enterprise (or a test server), as Probot does. */
export function githubApiBaseUrl(github: { gheHost?: string; gheProtocol?: 'http' | 'https' }): string {
  return github.gheHost ? `${github.gheProtocol ?? 'https'}://${github.gheHost}/api/v3` : GITHUB_API_BASE_URL;
}

/** The App's private key: PRIVATE_KEY, else the file PRIVATE_KEY_PATH names. */
export function privateKeyOf(github: Config['github']): string | undefined {
  if (github.privateKey) return github.privateKey;
  return github.privateKeyPath ? readFileSync(github.privateKeyPath, 'utf8') : undefined;
}

/**
 * GitHub access built from the one configuration (never from process.env); server/build-deps.ts
 * calls it once, with the credentials source that also sees the studio's registration.
 */
export function githubAccessFromConfig(config: Config, logger: Logger, appCredentials?: GitHubAppCredentialsSource): GitHubAppAccess {
  return createGitHubAccess({
    appCredentials,
    appId: config.github.appId,
    privateKey: privateKeyOf(config.github),
    token: config.github.token,
    baseUrl: githubApiBaseUrl(config.github),
    logger,
  });
}
