import type { AccountStore } from './account-store.js';
import { generateApiKey, hashApiKey } from './api-key.js';
import type { Principal } from './user.js';

/** Replaces the key that made the call; the old one stops working at once. */
export async function rotateKey(store: AccountStore, caller: Principal): Promise<string> {
  const apiKey = generateApiKey();
  await store.replaceKey(caller.keyHash, hashApiKey(apiKey));
  return apiKey;
}
