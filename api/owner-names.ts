import type { AccountStore } from '../core/accounts/account-store.js';
import { withDisplayNames } from './with-display-names.js';

/**
 * Execution and workflow responses name their owner (`owner_name` beside `owner_id`), so every
 * role that may see a record reads a name, not an id (docs/api.md, "People by name").
 */
export function withOwnerNames<T extends { owner_id: string }>(accounts: Pick<AccountStore, 'displayNames'>, items: T[]) {
  return withDisplayNames(accounts, items, 'owner_id', 'owner_name');
}

export async function withOwnerName<T extends { owner_id: string }>(accounts: Pick<AccountStore, 'displayNames'>, item: T) {
  const [named] = await withOwnerNames(accounts, [item]);
  return named;
}
