import type { Config } from '../core/config.js';
import type { GitHubAppCredentials, GitHubAppCredentialsSource } from '../core/github/app-credentials.js';
import type { AppRegistrationStore } from '../core/github/app-registration.js';
import { environmentAppCredentials } from './environment-app-credentials.js';

/** How often a replica asks the database whether the registration changed (one primary-key read). */
export const REGISTRATION_CHECK_MS = 3000;

/**
 * The App's credentials in force (docs/github-app.md, "Where the App's credentials come from"):
 * the environment's when APP_ID and a private key are set (read once; they win), else the App
 * registered from the studio. The registration's `registered_at` is compared at most every
 * `checkMs`; only a changed one is read and opened again, so a registration made on another
 * replica is in force here within `checkMs`, without a restart.
 */
export function registeredAppCredentialsSource(
  github: Config['github'],
  store: Pick<AppRegistrationStore, 'version' | 'credentials'>,
  checkMs = REGISTRATION_CHECK_MS,
): GitHubAppCredentialsSource {
  const environment = environmentAppCredentials(github);
  let known: { version: string | null; credentials: GitHubAppCredentials | null } | null = null;
  let checkedAt = 0;
  let inFlight: Promise<GitHubAppCredentials | null> | null = null;

  async function check(): Promise<GitHubAppCredentials | null> {
    const version = await store.version();
    if (!known || known.version !== version) known = { version, credentials: version === null ? null : await store.credentials() };
    checkedAt = Date.now();
    return known.credentials;
  }

  return {
    async current() {
      if (environment) return environment;
      if (known && Date.now() - checkedAt < checkMs) return known.credentials;
      // Concurrent callers share one check.
      inFlight ??= check().finally(() => (inFlight = null));
      return inFlight;
    },
    forget() {
      checkedAt = 0;
    },
  };
}
