import type { AccountStore } from './account-store.js';
import type { Principal } from './user.js';

/** Revokes the key that made the call (the studio's sign out); the user's other keys stay valid. */
export async function logOut(store: AccountStore, caller: Principal): Promise<void> {
  await store.revokeKey(caller.keyHash);
}
