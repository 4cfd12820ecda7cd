import type { Config } from '../core/config.js';
import type { GitHubAppCredentials, GitHubAppCredentialsSource } from '../core/github/app-credentials.js';
import { privateKeyOf } from './github-access-from-config.js';

/** The App's credentials from the environment alone: APP_ID with PRIVATE_KEY (or PRIVATE_KEY_PATH), else none. */
export function environmentAppCredentials(github: Config['github']): GitHubAppCredentials | null {
  const privateKey = privateKeyOf(github);
  if (!github.appId || !privateKey) return null;
  return {
    source: 'environment',
    appId: github.appId,
    slug: null,
    privateKey,
    webhookSecret: github.webhookSecret ?? null,
    clientId: github.clientId ?? null,
    clientSecret: github.clientSecret ?? null,
  };
}

/** A source that never changes: the environment's credentials, read once. */
export function environmentAppCredentialsSource(github: Config['github']): GitHubAppCredentialsSource {
  const credentials = environmentAppCredentials(github);
  return { current: async () => credentials };
}
