import type { AccountStore } from '../core/accounts/account-store.js';

/**
 * Adds `as` (the display name) beside each item's person id `field`: null when the id is null or
 * unknown (docs/api.md, "People by name"). One read of the account store for the whole list.
 */
export async function withDisplayNames<T, K extends keyof T & string, N extends string>(
  accounts: Pick<AccountStore, 'displayNames'>,
  items: T[],
  field: K,
  as: N,
): Promise<(T & Record<N, string | null>)[]> {
  const names = await accounts.displayNames(items.map((item) => item[field] as string | null));
  return items.map((item) => {
    const id = item[field] as string | null;
    return { ...item, [as]: (id !== null && names.get(id)) || null } as T & Record<N, string | null>;
  });
}
