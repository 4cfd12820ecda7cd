import { AuthenticationError, ForbiddenError, RateLimitedError } from '../errors.js';
import type { AccountStore } from './account-store.js';
import { generateApiKey, hashApiKey } from './api-key.js';
import { loginClientOf } from './login-client.js';
import { LOGIN_THROTTLE, loginRetryAfter } from './login-throttle.js';
import { verifyAgainstDummy, verifyPassword } from './password.js';
import type { User } from './user.js';

export const GITHUB_ONLY_ACCOUNT = 'This account has no password: it signs in with GitHub (Sign in with GitHub in the studio).';

/**
 * Checks the password and issues a NEW key; the user's other keys keep working, so a CI key
 * survives someone logging in to the studio. Unknown e-mail and wrong password answer alike.
 * `address` is the client's (api/middleware/client-address.ts): failures slow that client down,
 * never the account's owner logging in from elsewhere (login-throttle.ts).
 */
export async function logIn(
  store: AccountStore,
  email: string,
  password: string,
  address: string,
): Promise<{ user: User; apiKey: string }> {
  const normalised = email.toLowerCase();
  const client = loginClientOf(address);
  const retryAfter = await store.beginLoginAttempt(client, normalised, LOGIN_THROTTLE.windowSeconds, loginRetryAfter);
  if (retryAfter > 0) throw new RateLimitedError('Too many failed logins from this address; try again later.', retryAfter);
  const credentials = await store.findCredentials(normalised);
  const passwordHash = credentials?.passwordHash;
  const ok = passwordHash ? await verifyPassword(passwordHash, password) : await verifyAgainstDummy(password);
  // Each refusal below stays counted: beginLoginAttempt recorded the attempt as a failure.
  // An account created by "Sign in with GitHub" (docs/github-app.md) has no password to check.
  if (credentials && !passwordHash) throw new AuthenticationError(GITHUB_ONLY_ACCOUNT);
  if (!credentials || !ok) throw new AuthenticationError('Invalid email or password.');
  if (!credentials.user.active) throw new ForbiddenError('Account deactivated.');
  await store.clearLoginFailures(client, normalised);
  const apiKey = generateApiKey();
  await store.addKey(credentials.user.id, hashApiKey(apiKey), 'login');
  return { user: credentials.user, apiKey };
}
