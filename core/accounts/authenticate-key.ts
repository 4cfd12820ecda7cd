import { AuthenticationError, ForbiddenError } from '../errors.js';
import type { AccountStore } from './account-store.js';
import { hashApiKey } from './api-key.js';
import type { Principal } from './user.js';

export async function authenticateKey(store: AccountStore, key: string | undefined): Promise<Principal> {
  if (!key) throw new AuthenticationError('Missing API key.');
  const keyHash = hashApiKey(key);
  const holder = await store.findKeyHolder(keyHash);
  if (!holder) throw new AuthenticationError('Invalid API key.');
  if (!holder.user.active) throw new ForbiddenError('Account deactivated.');
  return {
    user: holder.user,
    keyHash,
    ...(holder.github ? { github: holder.github } : {}),
    ...(holder.githubUserId !== null ? { githubUserId: holder.githubUserId } : {}),
  };
}
