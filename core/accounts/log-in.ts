import { AuthenticationError, ForbiddenError, RateLimitedError } from '../errors.js';
import type { AccountStore } from './account-store.js';
import { generateApiKey, hashApiKey } from './api-key.js';
import { verifyAgainstDummy, verifyPassword } from './password.js';
import type { User } from './user.js';

export const LOGIN_FAILURE_LIMIT = 10;
export const LOGIN_WINDOW_SECONDS = 15 * 60;
export const GITHUB_ONLY_ACCOUNT = 'This account has no password: it signs in with GitHub (Sign in with GitHub in the studio).';

/**
 * Checks the password and issues a NEW key; the user's other keys keep working, so a CI key
 * survives someone logging in to the studio. Unknown e-mail and wrong password answer alike.
 */
export async function logIn(store: AccountStore, email: string, password: string): Promise<{ user: User; apiKey: string }> {
  const normalised = email.toLowerCase();
  const failures = await store.loginFailures(normalised, LOGIN_WINDOW_SECONDS);
  if (failures.count >= LOGIN_FAILURE_LIMIT) {
    const retryAfter = Math.max(1, LOGIN_WINDOW_SECONDS - failures.oldestAgeSeconds);
    throw new RateLimitedError('Too many failed logins for this account; try again later.', retryAfter);
  }
  const credentials = await store.findCredentials(normalised);
  const passwordHash = credentials?.passwordHash;
  const ok = passwordHash ? await verifyPassword(passwordHash, password) : await verifyAgainstDummy(password);
  if (credentials && !passwordHash) {
    // Created by "Sign in with GitHub" (docs/github-app.md): there is no password to check.
    await store.recordLoginFailure(normalised);
    throw new AuthenticationError(GITHUB_ONLY_ACCOUNT);
  }
  if (!credentials || !ok) {
    await store.recordLoginFailure(normalised);
    throw new AuthenticationError('Invalid email or password.');
  }
  if (!credentials.user.active) throw new ForbiddenError('Account deactivated.');
  await store.clearLoginFailures(normalised);
  const apiKey = generateApiKey();
  await store.addKey(credentials.user.id, hashApiKey(apiKey), 'login');
  return { user: credentials.user, apiKey };
}
